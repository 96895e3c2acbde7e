// The MCP SDK's JSON Schema validator, loaded on its first use. The SDK's Server and Client import
// ajv statically and build an instance when constructed without a validator (the import and the
// build cost drsg-mcp ~50 ms of its start), though the server's only use of it is to check
// elicitation answers, which drsg never requests. scripts/build-bundle.mjs puts this module where the SDK
// imports its validation/ajv-provider.js; the first getValidator loads the SDK's own validator
// (its CommonJS build) and hands every call to it.
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { onFirstUse } from "../lazy.js";

type Provider = typeof import("@modelcontextprotocol/sdk/validation/ajv").AjvJsonSchemaValidator;
const sdkValidator = onFirstUse<{ AjvJsonSchemaValidator: Provider }>("@modelcontextprotocol/sdk/validation/ajv");

export class AjvJsonSchemaValidator implements jsonSchemaValidator {
  private impl?: jsonSchemaValidator;

  /** `ajv`: an Ajv instance to use (the SDK's own constructor argument), handed on as given. */
  constructor(private readonly ajv?: unknown) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    if (!this.impl) {
      const { AjvJsonSchemaValidator: Real } = sdkValidator();
      this.impl = new Real(this.ajv as ConstructorParameters<Provider>[0]);
    }
    return this.impl.getValidator<T>(schema);
  }
}
