// The live run's input form, built from the input's JSON Schema (an object schema): one control per
// property. A boolean is a checkbox, a string with an enum a list, an array of such strings one checkbox
// per value, a number or a string a field; anything else is JSON in a small text box. Fields left empty
// are left out of the input, so the graph's own defaults apply.

function typesOf(property) {
  if (property.type === undefined) return [];
  return Array.isArray(property.type) ? property.type : [property.type];
}

const isOnly = (property, type) => typesOf(property).length === 1 && typesOf(property)[0] === type;
const stringEnum = (property) => Array.isArray(property?.enum) && property.enum.every((value) => typeof value === "string");

function element(tag, properties) {
  return Object.assign(document.createElement(tag), properties);
}

function control(name, property, value) {
  const id = `field-${name}`;
  if (isOnly(property, "boolean")) {
    const box = element("input", { type: "checkbox", id, checked: value === true });
    return { node: box, read: () => box.checked };
  }
  if (stringEnum(property)) {
    const list = element("select", { id });
    list.append(element("option", { value: "", textContent: "(leave out)" }));
    for (const option of property.enum) list.append(element("option", { value: option, textContent: option, selected: option === value }));
    return { node: list, read: () => (list.value === "" ? undefined : list.value) };
  }
  if (isOnly(property, "array") && stringEnum(property.items)) {
    const group = element("fieldset", { id });
    const boxes = property.items.enum.map((option) => {
      const box = element("input", { type: "checkbox", value: option, checked: Array.isArray(value) && value.includes(option) });
      const label = element("label", {});
      label.append(box, ` ${option}`);
      group.append(label);
      return box;
    });
    return { node: group, read: () => boxes.filter((box) => box.checked).map((box) => box.value) };
  }
  if (isOnly(property, "number") || isOnly(property, "integer")) {
    const field = element("input", { type: "number", id, step: isOnly(property, "integer") ? "1" : "any", value: value ?? "" });
    return { node: field, read: () => (field.value === "" ? undefined : Number(field.value)) };
  }
  if (isOnly(property, "string")) {
    const field = element("input", { type: "text", id, value: value ?? "" });
    return { node: field, read: () => (field.value === "" ? undefined : field.value) };
  }
  const text = element("textarea", { id, rows: 2, spellcheck: false, value: value === undefined ? "" : JSON.stringify(value) });
  return {
    node: text,
    read: () => {
      if (text.value.trim() === "") return undefined;
      try {
        return JSON.parse(text.value);
      } catch (error) {
        throw new Error(`The field ${name} is not JSON: ${error.message}`);
      }
    },
  };
}

/**
 * The form of an object JSON Schema, prefilled from `values`: its elements (one `.field` each, named by
 * `data-field`) and `read()`, the input object (throws with the field's name when a JSON box is not JSON).
 * `undefined` when the schema has no properties to build a form from.
 */
export function schemaForm(schema, values) {
  const properties = schema?.properties;
  if (typeof properties !== "object" || properties === null || Object.keys(properties).length === 0) return undefined;
  const fields = Object.entries(properties).map(([name, property]) => {
    const { node, read } = control(name, property ?? {}, values?.[name]);
    const wrapper = element("div", { className: "field" });
    wrapper.dataset.field = name;
    const label = element("label", { htmlFor: node.id, textContent: name });
    if (typeof property?.description === "string") label.title = property.description;
    wrapper.append(label, node);
    return { name, wrapper, read };
  });
  return {
    elements: fields.map((field) => field.wrapper),
    read() {
      const input = {};
      for (const { name, read } of fields) {
        const value = read();
        if (value !== undefined) input[name] = value;
      }
      return input;
    },
  };
}
