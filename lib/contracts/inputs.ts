/**
 * Declared inputs of contracts (reference AC41: "as AC2"; AC6): the same parser and validator as
 * actions (`lib/actions/inputs.ts`), so both accept, refuse and report inputs alike.
 *
 * @module
 */
export { checkInputs as validateInputs, parseInputDeclaration } from "../actions/inputs.ts";
