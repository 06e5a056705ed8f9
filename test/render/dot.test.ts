import { describe, expect, it } from "vitest";
import { toDot } from "../../src/render/dot.js";
import { everyRule, examples } from "./_graphs.js";

describe("toDot", () => {
  it("draws the report graph: START a circle, END a double circle, route keys as labels", () => {
    expect(toDot(examples.report())).toMatchInlineSnapshot(`
      "digraph {
        rankdir=TB;
        node [shape=box, style=rounded];
        __start__ [label="START", shape="circle"];
        collect [label="collect"];
        write_draft [label="write_draft"];
        check_draft [label="check_draft"];
        revise_draft [label="revise_draft"];
        publish [label="publish"];
        hold [label="hold"];
        __end__ [label="END", shape="doublecircle"];
        __start__ -> collect;
        collect -> write_draft;
        write_draft -> check_draft;
        check_draft -> publish [label="accept"];
        check_draft -> revise_draft [label="revise"];
        check_draft -> hold [label="hold"];
        revise_draft -> check_draft;
        publish -> __end__;
        hold -> __end__;
      }
      "
    `);
  });

  it("draws a fan-out bold and a join as a bar", () => {
    expect(toDot(examples.research())).toMatchInlineSnapshot(`
      "digraph {
        rankdir=TB;
        node [shape=box, style=rounded];
        __start__ [label="START", shape="circle"];
        plan [label="plan"];
        web [label="web"];
        papers [label="papers"];
        internal [label="internal"];
        synthesize [label="synthesize"];
        join_0 [label="", shape="box", style="filled", fillcolor="black", width="0.8", height="0.05", fixedsize="true"];
        __end__ [label="END", shape="doublecircle"];
        __start__ -> plan;
        plan -> web [style="bold"];
        plan -> papers [style="bold"];
        plan -> internal [style="bold"];
        web -> join_0;
        papers -> join_0;
        internal -> join_0;
        join_0 -> synthesize;
        synthesize -> __end__;
      }
      "
    `);
  });

  it("draws every kind of rule of one spec, left to right on request", () => {
    expect(toDot(everyRule, { rankdir: "LR" })).toMatchInlineSnapshot(`
      "digraph {
        rankdir=LR;
        node [shape=box, style=rounded];
        __start__ [label="START", shape="circle"];
        plan [label="plan"];
        a [label="a"];
        b [label="b"];
        merge [label="merge"];
        pick [label="pick"];
        x [label="x"];
        y [label="y"];
        join_0 [label="", shape="box", style="filled", fillcolor="black", width="0.8", height="0.05", fixedsize="true"];
        __end__ [label="END", shape="doublecircle"];
        __start__ -> plan;
        plan -> a [style="bold"];
        plan -> b [style="bold"];
        a -> join_0;
        b -> join_0;
        join_0 -> merge;
        merge -> pick;
        pick -> x [label="x", style="bold"];
        pick -> y [label="y", style="bold"];
        pick -> __end__ [label="END", style="bold"];
        x -> __end__;
        y -> __end__;
      }
      "
    `);
  });
});
