/** The guide's example of a refused query; tests/docs/guide-samples.test.ts asks the real API the same. */
export const validationExample = {
  request: "/v1/candidates?state=done&limit=500",
  problems: [
    { parameter: "state", code: "invalid_value", message: "must be one of submitted, in_progress, all" },
    { parameter: "limit", code: "out_of_range", message: "must be a whole number from 1 to 25" },
  ],
};
