// Address normalisation (docs/api.md "Address search"): the spellings a user may type fold to one form.
import { normalizeAddress, normalizeFullAddress } from "../../src/schema/address";

describe("normalizeAddress", () => {
  it.each([
    ["123 North Main Street, Apt 4", "123 n main st apt 4"],
    ["123 n main st apt 4", "123 n main st apt 4"],
    ["  123   MAIN   STREET  ", "123 main st"],
    ["5 Ocean Avenue", "5 ocean ave"],
    ["5 Ocean Av.", "5 ocean ave"],
    ["9 Sunset Boulevard", "9 sunset blvd"],
    ["1 Elm Road", "1 elm rd"],
    ["1 Elm Drive", "1 elm dr"],
    ["1 Elm Lane", "1 elm ln"],
    ["1 Elm Court", "1 elm ct"],
    ["1 Elm Place", "1 elm pl"],
    ["1 Elm Terrace", "1 elm ter"],
    ["1 Elm Parkway", "1 elm pkwy"],
    ["1 Elm Highway", "1 elm hwy"],
    ["1 Elm Circle", "1 elm cir"],
    ["1 Elm Square", "1 elm sq"],
    ["1 Elm St Suite 200", "1 elm st ste 200"],
    ["1 Elm St Apartment 3", "1 elm st apt 3"],
    ["1 Elm St #4", "1 elm st unit 4"],
    ["1 Elm St Unit 4", "1 elm st unit 4"],
    ["10 Northeast 5th Street", "10 ne 5th st"],
    ["10 SOUTHWEST 5th St", "10 sw 5th st"],
    ["10 East West Street", "10 e w st"],
    ["O'Brien's Way", "o brien s way"],
    ["", ""],
    ["  ,.;  ", ""],
  ])("%j → %j", (input, expected) => {
    expect(normalizeAddress(input)).toBe(expected);
  });

  it("is idempotent", () => {
    for (const input of ["123 North Main Street, Apt 4", "1 Elm St #4", "9 Sunset Boulevard"]) {
      const once = normalizeAddress(input);
      expect(normalizeAddress(once)).toBe(once);
    }
  });

  it("leaves words it does not know alone, including ones that contain a known word", () => {
    expect(normalizeAddress("1 Northern Streetcar Avenue")).toBe("1 northern streetcar ave");
  });
});

describe("normalizeFullAddress", () => {
  it("joins address, city, state and zip and normalises the whole line", () => {
    expect(normalizeFullAddress({ address: "123 North Main Street", city: "Springfield", state: "IL", zip: "62704" })).toBe(
      "123 n main st springfield il 62704",
    );
  });

  it("skips the parts that are missing", () => {
    expect(normalizeFullAddress({ address: "1 Elm Street", city: null, state: undefined, zip: "" })).toBe("1 elm st");
  });
});
