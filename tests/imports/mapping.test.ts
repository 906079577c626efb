import { describe, expect, it } from "vitest";
import { guessMapping, mappingProblem } from "~/models/files/import-mapping";

describe("guessMapping", () => {
  it.each([
    [["Orgnr", "Navn", "Land"], { orgId: 0, orgName: 1, countryCode: 2 }],
    [["Org.nr.", "Leverandør"], { orgId: 0, orgName: 1, countryCode: null }],
    [["Kommentar", "Supplier", "Org nr", "Country"], { orgId: 2, orgName: 1, countryCode: 3 }],
    [["Organization number", "Name"], { orgId: 0, orgName: 1, countryCode: null }],
    [["ORGANISASJONSNUMMER", "NAVN"], { orgId: 0, orgName: 1, countryCode: null }],
  ])("from the headers %j", (headers, expected) => {
    expect(guessMapping([headers, headers.map(() => "")], true)).toEqual(expected);
  });

  it("without headers, from the content: the column of valid numbers and the first text column", () => {
    const rows = [
      ["1", "WAYS AS", "NO 832 175 692 MVA"],
      ["2", "TØNSBERGLIVET AS", "993020923"],
      ["3", "BERNHARD MOE AS", ""],
    ];
    expect(guessMapping(rows, false)).toEqual({ orgId: 2, orgName: 1, countryCode: null });
  });

  it("guesses nothing it cannot see", () => {
    expect(
      guessMapping(
        [
          ["a", "b"],
          ["1", "2"],
        ],
        true,
      ),
    ).toEqual({ orgId: null, orgName: null, countryCode: null });
    expect(guessMapping([], true)).toEqual({ orgId: null, orgName: null, countryCode: null });
  });
});

describe("mappingProblem", () => {
  const source = { columnCount: 3, sheets: ["Ark1"] };
  const ok = { orgId: 0, orgName: 1, countryCode: null, hasHeaders: true, sheet: 0 };
  it("accepts a complete mapping and names what is wrong with others", () => {
    expect(mappingProblem(ok, source)).toBeNull();
    expect(mappingProblem({ ...ok, orgId: null }, source)).toEqual({ problem: "select-both", field: "orgId" });
    expect(mappingProblem({ ...ok, orgName: null }, source)).toEqual({ problem: "select-both", field: "orgName" });
    expect(mappingProblem({ ...ok, orgName: 0 }, source)).toEqual({ problem: "same-column", field: "orgName" });
    expect(mappingProblem({ ...ok, countryCode: 1 }, source)).toEqual({ problem: "same-column", field: "countryCode" });
    expect(mappingProblem({ ...ok, countryCode: 3 }, source)).toEqual({ problem: "no-such-column", field: "countryCode" });
    expect(mappingProblem({ ...ok, sheet: 1 }, source)).toEqual({ problem: "no-such-sheet", field: "sheet" });
  });
});
