// The official TypeScript SDK client against our stdio server: prints one JSON report.
// argv: <command> <args as a JSON array> <env as a JSON object> <cwd>
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [command, args, env, cwd] = [process.argv[2], JSON.parse(process.argv[3]), JSON.parse(process.argv[4]), process.argv[5]];
const transport = new StdioClientTransport({ command, args, env, cwd, stderr: "pipe" });
let stderr = "";
transport.stderr?.on("data", (chunk) => { stderr += chunk.toString(); });
const client = new Client({ name: "ts-probe", version: "1.0.0" });
const report = {};
const errorOf = async (call) => {
  try { await call(); return null; } catch (e) { return { code: e.code ?? null, message: String(e.message ?? e) }; }
};
try {
  await client.connect(transport);
  report.server = client.getServerVersion();
  const { tools } = await client.listTools();
  report.tools = tools.map((t) => ({ name: t.name, hasOutputSchema: !!t.outputSchema?.properties }));
  // The client validates structuredContent against each tool's outputSchema itself.
  const search = await client.callTool({ name: "search", arguments: { query: "Fly.io" } });
  report.search = { isError: !!search.isError, first: search.structuredContent?.hits?.[0]?.id ?? null };
  const list = await client.callTool({ name: "list", arguments: {} });
  report.list = list.structuredContent?.entries?.map((e) => e.id) ?? null;
  const res = await client.readResource({ uri: "memory://INDEX.md" });
  report.resource = res.contents?.[0]?.text?.includes("ops") ?? false;
  const prompt = await client.getPrompt({ name: "use-memory" });
  report.prompt = prompt.messages?.length ?? 0;
  report.unknownTool = await errorOf(() => client.callTool({ name: "no-such-tool", arguments: {} }));
  report.unknownPrompt = await errorOf(() => client.getPrompt({ name: "no-such-prompt" }));
  report.trash = await errorOf(() => client.readResource({ uri: "memory://.trash/x.md" }));
  const extra = await client.callTool({ name: "search", arguments: { query: "x", bogus: 1 } });
  report.extraArgument = { isError: !!extra.isError, text: extra.content?.[0]?.text ?? "" };
} catch (e) {
  report.failure = String(e?.stack ?? e);
} finally {
  await client.close().catch(() => {});
  report.stderr = stderr;
  console.log(JSON.stringify(report));
}
