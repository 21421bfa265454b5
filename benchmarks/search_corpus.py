"""A labelled search corpus: known facts hidden among generated noise, with 64 queries.

    python benchmarks/search_corpus.py OUT    # writes OUT/memory, OUT/project, OUT/queries.jsonl

Facts are store entries (English and Chinese) and journal-only turns; every fact has an
exact-term query and a paraphrase (other words, same meaning). The noise is the lead's
``gen_corpus`` store and journals (same templates as the speed benchmarks). Query kinds:
``exact``, ``paraphrase``, ``zh-exact``, ``zh-paraphrase``, ``journal-exact``,
``journal-paraphrase``. Gold is an entry id, or ``journal:<day>:<marker>`` for a turn.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

STORE_FACTS = [
    (
        "preferences/editor",
        "Editor setup",
        "Neovim with the gruvbox colour scheme, relative line numbers and the telescope plugin for fuzzy finding.",
        "gruvbox",
        "which text editor and color theme do I use",
    ),
    (
        "projects/atlas/billing",
        "Atlas billing provider",
        "Atlas charges customers through Stripe; invoices are generated on the first day of each month and webhooks land on /hooks/stripe.",
        "Stripe webhooks",
        "how do we take payments from customers in atlas",
    ),
    (
        "people/dana",
        "Dana (designer)",
        "Dana owns the design system; she wants every button to use the 8px spacing grid and reviews Figma files on Tuesdays.",
        "Figma Tuesdays",
        "who is responsible for the UI component library",
    ),
    (
        "incidents/2024/tls",
        "March outage",
        "The outage on 12 March was caused by an expired TLS certificate on the load balancer; certbot renewal had silently failed.",
        "certbot",
        "why did the site go down in March",
    ),
    (
        "preferences/commits",
        "Commit message style",
        "Use conventional commits: feat:, fix:, chore:; keep the subject under 50 characters, imperative mood.",
        "conventional commits",
        "how should I phrase git commit titles",
    ),
    (
        "tools/backup",
        "Laptop backups",
        "Restic snapshots the home folder to a Backblaze B2 bucket every night at 02:00; keep 30 daily and 12 monthly snapshots.",
        "restic Backblaze",
        "how is my computer data protected against disk failure",
    ),
    (
        "projects/orion/cache",
        "Orion caching",
        "Orion caches product pages in Redis for 5 minutes; the cache key includes the locale and currency.",
        "cache key locale currency",
        "how long are store pages kept before they refresh",
    ),
    (
        "people/manager",
        "Manager 1:1s",
        "Weekly one-on-one with Priya on Thursdays at 10:00; bring the roadmap doc and the blockers list.",
        "Priya",
        "when do I meet my boss each week",
    ),
    (
        "health/allergy",
        "Food allergy",
        "The user is allergic to peanuts and cashews; avoid suggesting Thai satay recipes.",
        "peanuts",
        "what nuts can I not eat",
    ),
    (
        "projects/nova/auth",
        "Nova login",
        "Nova authenticates users with passkeys (WebAuthn) and falls back to magic links sent by email; no passwords are stored.",
        "WebAuthn passkeys",
        "how do people sign in to nova without a password",
    ),
    (
        "travel/japan",
        "Japan trip",
        "Flight to Osaka on 4 October, staying in Kyoto for a week near Gion; the JR pass is already bought.",
        "JR pass",
        "where am I staying during the autumn holiday in Asia",
    ),
    (
        "tools/shell",
        "Shell setup",
        "zsh with the starship prompt, fzf for history search and zoxide instead of cd.",
        "zoxide",
        "what do I use to jump between directories quickly",
    ),
    (
        "projects/kepler/ml",
        "Kepler model training",
        "Kepler's classifier is fine-tuned from DistilBERT on 40k support tickets; retraining runs monthly on a spot GPU instance.",
        "DistilBERT",
        "how is the ticket classification model trained",
    ),
    (
        "finance/tax",
        "Tax deadlines",
        "Quarterly estimated taxes are due 15 April, 15 June, 15 September and 15 January; the accountant is Marco.",
        "estimated taxes",
        "when do I have to pay the government every few months",
    ),
    (
        "home/plants",
        "Plant care",
        "Water the fiddle-leaf fig every ten days; the monstera likes indirect light and misting.",
        "monstera",
        "how often should the big indoor tree get water",
    ),
    (
        "projects/lyra/i18n",
        "Lyra translations",
        "Lyra strings live in Fluent .ftl files; translators use Weblate and the default locale is German.",
        "Weblate",
        "which tool do translators work in for lyra",
    ),
]
ZH_FACTS = [
    ("偏好/饮食", "饮食偏好", "用户不吃香菜，喜欢四川火锅，但是不能太辣。", "香菜", "我喜欢吃什么样的火锅"),
    (
        "知识/发布",
        "发布规则",
        "生产环境的发布需要两个人审批，周五下午禁止上线，回滚脚本放在 ops 仓库。",
        "周五下午禁止上线",
        "什么时候不能发布新版本",
    ),
    (
        "知识/周会",
        "周会安排",
        "团队周会在每周一上午十点，用飞书视频会议，会议纪要由小王整理。",
        "飞书视频会议",
        "谁负责写会议记录",
    ),
    (
        "偏好/写作",
        "写作工具",
        "写文档用 Obsidian，图表用 Excalidraw 画，导出为 PNG。",
        "Excalidraw",
        "我用什么软件写笔记和画图",
    ),
    (
        "知识/测试服务器",
        "测试服务器",
        "测试服务器在阿里云杭州区域，规格是 4 核 8G，系统是 Ubuntu 22.04。",
        "阿里云杭州",
        "测试机器的配置是多少",
    ),
    ("people/老李", "老李", "老李是后端负责人，擅长 Go 和 Kafka，周三下午在上海办公室。", "老李", "后端团队由谁领导"),
]
JOURNAL_FACTS = [
    (
        "2023-03-02",
        "Switched the CI runners from CircleCI to GitHub Actions to cut build time by 40%",
        "CircleCI",
        "why did we move our continuous integration provider",
    ),
    (
        "2023-03-09",
        "Found that the memory leak in the worker came from an unbounded lru_cache on parse_config",
        "lru_cache memory leak",
        "what made the background job use more and more RAM",
    ),
    (
        "2023-04-11",
        "User asked to always run the ruff formatter before committing",
        "ruff formatter",
        "what should happen before I commit code",
    ),
    (
        "2023-05-20",
        "Bumped the minimum Python version to 3.11 because we need tomllib",
        "tomllib",
        "why do we require a newer python",
    ),
    (
        "2023-06-01",
        "Rotated the leaked Sentry DSN and moved it into the vault",
        "Sentry DSN",
        "which credential was exposed and replaced",
    ),
    (
        "2023-06-15",
        "Load test showed p99 latency of 480 ms at 2000 requests per second on the checkout endpoint",
        "p99 latency",
        "how fast was the payment page under heavy traffic",
    ),
    (
        "2023-07-04",
        "Agreed with Dana to drop Internet Explorer support in the next release",
        "Internet Explorer",
        "which old browser will we stop supporting",
    ),
    (
        "2023-08-19",
        "Moved image storage from local disk to S3 with CloudFront in front",
        "CloudFront",
        "where are uploaded pictures kept now",
    ),
    ("2023-09-03", "用户说以后日志统一用 JSON 格式输出，方便检索", "日志统一用 JSON", "日志应该是什么格式"),
    (
        "2023-10-12",
        "Replaced the cron-based report emails with a Temporal workflow that retries failed sends",
        "Temporal workflow",
        "how do the scheduled report emails get retried now",
    ),
]


def generate(out: Path, *, noise_entries: int = 800, noise_days: int = 60) -> tuple[Path, Path, list[dict]]:
    """Write the corpus under ``out``; returns (memory root, project, queries)."""
    from gen_corpus import gen_journals, gen_store

    root, project = out / "memory", out / "project"
    memdir = project / ".memsearch" / "memory"
    gen_store(root, noise_entries, 0, 11)
    gen_journals(memdir, noise_days, 11)
    queries: list[dict] = []
    for entry_id, title, body, exact, para in STORE_FACTS + ZH_FACTS:
        path = root / f"{entry_id}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\ntitle: {title}\nstatus: active\ntags: []\n---\n{body}\n", encoding="utf-8")
        zh = any("\u4e00" <= ch <= "\u9fff" for ch in para)
        queries.append({"query": exact, "gold": entry_id, "kind": "zh-exact" if zh else "exact"})
        queries.append({"query": para, "gold": entry_id, "kind": "zh-paraphrase" if zh else "paraphrase"})
    for day, fact, exact, para in JOURNAL_FACTS:
        path = memdir / f"{day}.md"
        path.write_text(
            f"# {day}\n\n## Session 10:00\n\n### 10:05\n<!-- session:f{day} turn:1 -->\n- Reviewed open pull requests\n"
            f"- Nothing blocking\n\n### 10:20\n<!-- session:f{day} turn:2 -->\n- {fact}\n- Noted in the changelog\n\n"
            f"### 10:40\n<!-- session:f{day} turn:3 -->\n- Lunch break\n",
            encoding="utf-8",
        )
        marker = fact[:20]
        queries.append({"query": exact, "gold": f"journal:{day}:{marker}", "kind": "journal-exact"})
        queries.append({"query": para, "gold": f"journal:{day}:{marker}", "kind": "journal-paraphrase"})
    for i, q in enumerate(queries):
        q["id"] = i
    (out / "queries.jsonl").write_text(
        "".join(json.dumps(q, ensure_ascii=False) + "\n" for q in queries), encoding="utf-8"
    )
    return root, project, queries


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("search-corpus")
    r, p, qs = generate(target)
    print(f"{r} + {p}: {len(qs)} labelled queries in {target / 'queries.jsonl'}")
