"""Two small mixed memories (store entries + a month of journals), one Chinese, one English,
each with 12 natural questions and the entry that answers each (issue 24).

The journals are distractors on purpose: they talk about the same things (deploys,
certificates, payments) without being the answer, the way an agent's daily notes do.
"""

from __future__ import annotations

from pathlib import Path

from tests.search.conftest import write_entry

ZH_ENTRIES = {
    "people/支付负责人": ("支付模块负责人", "支付网关和退款流程由王磊负责，有问题先找他；他休假时找李娜。"),
    "ops/证书续期": ("TLS 证书续期", "证书每 90 天过期。续期方法：运行 certbot renew，然后重新加载 nginx。"),
    "ops/数据库备份": ("数据库备份", "每天凌晨两点用 pg_dump 备份订单库，保留 30 天，备份文件放在 S3 的 backup 桶里。"),
    "ops/发布回滚": ("发布回滚步骤", "上线出问题时回滚：在发布平台选择上一个版本，点击回滚，五分钟内完成。"),
    "people/界面偏好": ("用户界面偏好", "用户喜欢深色主题和简洁的界面，讨厌弹窗。"),
    "projects/测试规范": ("测试规范", "单元测试用 pytest，提交前必须跑通全部测试，覆盖率不低于百分之八十。"),
    "ops/值班安排": ("值班安排", "周末值班表在共享日历里，本周是张伟，紧急情况直接打他的手机。"),
    "projects/接口限流": ("接口限流", "对外 API 每个密钥每分钟最多 600 次请求，超过就返回 429。"),
    "ops/日志查询": ("日志查询", "线上日志统一收集到 Loki，在 Grafana 里按服务名查询，保留七天。"),
    "projects/代码评审": ("代码评审规则", "每个合并请求至少需要两位同事批准，涉及支付的改动还要王磊审核。"),
    "tools/开发环境": ("本地开发环境", "本地开发用 Docker Compose 启动依赖：先执行 make setup，再运行 make dev。"),
    "ops/密钥轮换": ("访问密钥轮换", "云服务的访问密钥每季度轮换一次，新密钥存放在 Vault 的 prod 路径下。"),
}

ZH_QUESTIONS = [
    ("支付那块找谁？", "people/支付负责人"),
    ("证书怎么续期？", "ops/证书续期"),
    ("数据库多久备份一次？", "ops/数据库备份"),
    ("上线出问题了怎么回滚？", "ops/发布回滚"),
    ("用户喜欢什么样的主题？", "people/界面偏好"),
    ("提交前要跑哪些测试？", "projects/测试规范"),
    ("这周末谁值班？", "ops/值班安排"),
    ("接口每分钟能调用多少次？", "projects/接口限流"),
    ("线上日志去哪里看？", "ops/日志查询"),
    ("合并请求需要几个人批准？", "projects/代码评审"),
    ("本地开发环境怎么搭起来？", "tools/开发环境"),
    ("访问密钥多久换一次？", "ops/密钥轮换"),
]

ZH_CHATTER = [
    "今天讨论了支付页面的按钮颜色，大家觉得太亮了。",
    "证书的事明天再说，先把首页改完。",
    "测试又挂了一次，原因是网络超时。",
    "上线之前和产品确认了文案。",
    "用户反馈搜索太慢，记下来下周看。",
    "整理了一下周报，发给了团队。",
    "把日志级别从调试改成了信息。",
    "开会讨论了下个季度的计划。",
    "修复了订单列表分页的问题。",
    "帮新同事配置了编辑器。",
]

EN_ENTRIES = {
    "ops/rollback": (
        "Rollback procedure",
        "If a release breaks production, open the release dashboard, pick the previous build and "
        "press Rollback. It takes about five minutes.",
    ),
    "ops/tls": (
        "TLS certificate renewal",
        "Certificates expire every 90 days. Renew them with certbot renew, then reload nginx.",
    ),
    "people/payments-owner": (
        "Payments owner",
        "Priya owns the payment gateway and refunds; ask her first, or Tom when she is away.",
    ),
    "tools/dev-setup": (
        "Local development setup",
        "Run make setup once, then make dev; the dependencies start in Docker Compose.",
    ),
    "ops/backups": (
        "Database backups",
        "The orders database is dumped with pg_dump every night at 02:00 and kept for 30 days in the S3 backup bucket.",
    ),
    "ops/oncall": (
        "On-call rota",
        "The weekend on-call rota lives in the shared calendar; this week it is Sam. Page them through PagerDuty.",
    ),
    "projects/rate-limits": (
        "API rate limits",
        "Each API key may make 600 requests per minute; above that the API answers 429.",
    ),
    "ops/logs": (
        "Where logs live",
        "Production logs are shipped to Loki; search them in Grafana by service name. They are kept for seven days.",
    ),
    "projects/code-review": (
        "Code review rules",
        "Every merge request needs two approvals; changes touching payments also need Priya.",
    ),
    "people/ui-prefs": ("UI preferences", "The user prefers a dark theme, a compact layout and no pop-ups."),
    "ops/key-rotation": (
        "Access key rotation",
        "Cloud access keys are rotated every quarter; new keys are stored in Vault under prod/.",
    ),
    "ops/incidents": (
        "Incident checklist",
        "When the site is down: post in #incidents, name an incident lead, write the timeline as you go, "
        "and hold the postmortem within two days.",
    ),
}

EN_QUESTIONS = [
    ("how do we roll back a deploy?", "ops/rollback"),
    ("how do I renew the certificates?", "ops/tls"),
    ("who is in charge of payments?", "people/payments-owner"),
    ("how do I set up my laptop for development?", "tools/dev-setup"),
    ("how often is the database backed up?", "ops/backups"),
    ("who is on call this weekend?", "ops/oncall"),
    ("how many requests per minute can a client make?", "projects/rate-limits"),
    ("where can I read the production logs?", "ops/logs"),
    ("how many approvals does a merge request need?", "projects/code-review"),
    ("what theme does the user like?", "people/ui-prefs"),
    ("how often do we rotate the access keys?", "ops/key-rotation"),
    ("what do we do when the site goes down?", "ops/incidents"),
]

EN_CHATTER = [
    "Deployed the new search page; the deploy went fine and nobody noticed.",
    "Talked about the deploy schedule for next week with the team.",
    "Priya reviewed the checkout page copy.",
    "The nightly job printed a warning about disk space, looked harmless.",
    "Pairing session on the settings screen, we moved two buttons.",
    "User asked how the release notes are written; showed the template.",
    "Fixed a flaky test in the orders module.",
    "Read through the logs of the image service while waiting for CI.",
    "Planned the next quarter's work with the product manager.",
    "Helped a new colleague install their editor.",
]


def build(tmp: Path, lang: str, days: int = 30) -> tuple[Path, Path, list[tuple[str, str]]]:
    """(memory_root, project, questions) for ``lang`` in ``zh`` or ``en``, under ``tmp``."""
    entries, chatter, questions = (
        (ZH_ENTRIES, ZH_CHATTER, ZH_QUESTIONS) if lang == "zh" else (EN_ENTRIES, EN_CHATTER, EN_QUESTIONS)
    )
    root = tmp / f"memory-{lang}"
    for entry_id, (title, body) in entries.items():
        write_entry(root, entry_id, title, [entry_id.split("/")[0]], body + "\n")
    project = tmp / f"proj-{lang}"
    journal = project / ".memsearch" / "memory"
    journal.mkdir(parents=True)
    for day in range(days):
        turns = []
        for t in range(4):
            line = chatter[(day * 4 + t) % len(chatter)]
            turns.append(f"### {9 + t:02d}:00\n<!-- session:s{day} turn:{t} -->\n- {line}\n")
        (journal / f"2026-10-{day + 1:02d}.md").write_text(
            f"# 2026-10-{day + 1:02d}\n\n## Session 09:00\n\n" + "\n".join(turns), encoding="utf-8"
        )
    return root, project, questions
