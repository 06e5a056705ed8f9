/**
 * A long list of values drawn from a few distinct ones (the route keys a run's steps took, the sizes of
 * its supersteps), kept as one 32-bit id per entry in a typed array that doubles as
 * it grows, and the distinct values once each. A million-step run's result holds such lists while it is
 * held: four bytes an entry, and no slot the collector has to trace, where an array of strings costs
 * eight and is traced on every collection (issue 37, measured in bench/retention.ts).
 */
export class IdColumn<T> {
  #ids = new Int32Array(16);
  #length = 0;
  readonly #values: T[] = [];
  readonly #idOf = new Map<T, number>();
  /** The last value pushed and its id: a run repeats its last key and size far more often than not, and this skips the lookup. */
  #lastValue: T | undefined;
  #lastId = -1;

  /** How many entries the column holds. */
  get length(): number {
    return this.#length;
  }

  /** Appends `value`. */
  push(value: T): void {
    let id = this.#lastId >= 0 && this.#lastValue === value ? this.#lastId : this.#idOf.get(value);
    if (id === undefined) {
      id = this.#values.length;
      this.#values.push(value);
      this.#idOf.set(value, id);
    }
    this.#lastValue = value;
    this.#lastId = id;
    if (this.#length === this.#ids.length) {
      const grown = new Int32Array(this.#ids.length * 2);
      grown.set(this.#ids);
      this.#ids = grown;
    }
    this.#ids[this.#length++] = id;
  }

  /** The entry at `index` (`index` below {@link length}). */
  at(index: number): T {
    return this.#values[this.#ids[index] as number] as T;
  }
}
