/**
 * The official MCP SDK client connected to an in-process app (its `fetch`, no socket), as the MCP
 * tests use it.
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

/** What {@link connectMcp} connects to: anything with a `fetch` (a Hono app). */
interface FetchApp {
  fetch(request: Request): Response | Promise<Response>;
}

/**
 * Connects a client to `app`'s `/mcp` with `headers` on every request; `call` runs a tool and
 * returns its first text content and whether it is an error.
 */
export async function connectMcp(app: FetchApp, headers: Record<string, string> = {}) {
  const appFetch = (input: RequestInfo | URL, init?: RequestInit) =>
    Promise.resolve(app.fetch(new Request(input, init)));
  const client = new Client({ name: "graphsvc-test", version: "0.0.1" });
  const transport = new StreamableHTTPClientTransport(new URL("http://test/mcp"), {
    fetch: appFetch,
    requestInit: { headers },
  });
  await client.connect(transport);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const res = await client.callTool({ name, arguments: args });
    const content = res.content as { type: string; text: string }[];
    return { isError: res.isError === true, text: content[0].text };
  };
  return { appFetch, client, transport, call };
}
