// The official TypeScript SDK client against our streamable-HTTP server: prints one JSON report.
// argv: <url> <bearer token>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const [url, token] = [process.argv[2], process.argv[3]];
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${token}` } },
});
const client = new Client({ name: "ts-http-probe", version: "1.0.0" });
const report = {};
try {
  await client.connect(transport);
  report.protocol = transport.protocolVersion ?? null;
  report.session = !!transport.sessionId;
  const { tools } = await client.listTools();
  report.tools = tools.length;
  // The client validates structuredContent against each tool's outputSchema itself.
  const search = await client.callTool({ name: "search", arguments: { query: "Fly.io" } });
  report.search = { isError: !!search.isError, first: search.structuredContent?.hits?.[0]?.id ?? null };
  const none = await client.callTool({ name: "proposals", arguments: {} });
  report.proposals = none.structuredContent ?? null;
  await transport.terminateSession();
  report.terminated = !transport.sessionId;
} catch (e) {
  report.failure = String(e?.stack ?? e);
} finally {
  await client.close().catch(() => {});
  console.log(JSON.stringify(report));
}
