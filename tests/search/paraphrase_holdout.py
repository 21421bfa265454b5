"""A held-out paraphrase set (issue 36 item 2): 15 English and 15 Chinese entries, two
questions each, written after the original set (:mod:`tests.search.paraphrase_questions`)
and in its style (a question shares at most one content term with its entry), but never
used to choose a technique: a change tuned on the original set is kept only if this set
agrees. ``benchmarks/paraphrase_quality.py --set holdout`` scores its questions over a store
of these entries and the original set's 40 (distractors); ``test_paraphrase_set.py`` checks
its shape.
"""

from __future__ import annotations

from pathlib import Path

from tests.search import paraphrase_questions as original
from tests.search.conftest import write_entry

# id: (title, body, (question, question))
EN = {
    "ops/redis-cache": (
        "Redis cache",
        "Session data lives in Redis with a 24-hour TTL; the cluster has three nodes behind Sentinel.",
        (
            "how long does a logged-in visitor's state survive before it is dropped?",
            "what keeps the in-memory store available if one machine dies?",
        ),
    ),
    "db/migrations": (
        "Schema migrations",
        "Migrations are written with Alembic; run alembic upgrade head before starting the API, "
        "and never edit a migration that has been merged.",
        (
            "how do table changes get applied before the service boots?",
            "may I modify an old structural change script once it is in main?",
        ),
    ),
    "people/commit-style": (
        "Commit message style",
        "The user writes commit messages in the imperative mood, under 72 characters, with the issue number at the end.",
        (
            "how should my change descriptions in version control be phrased?",
            "where does the ticket reference go in the summary line of a patch?",
        ),
    ),
    "tools/shell": (
        "Shell setup",
        "The user's shell is zsh with oh-my-zsh and the starship prompt; aliases live in ~/.zshrc.",
        (
            "which command-line interpreter does the person type into?",
            "where do the terminal's typing shortcuts get defined?",
        ),
    ),
    "ops/autoscaling": (
        "Autoscaling",
        "The web deployment scales between 3 and 12 pods when CPU stays above 70 percent for five minutes.",
        (
            "what makes the cluster add more copies of the site under heavy traffic?",
            "what's the smallest and largest number of replicas for the frontend?",
        ),
    ),
    "ops/dns": (
        "DNS provider",
        "Our domains are registered at Namecheap but DNS is served by Cloudflare; changes propagate in about five minutes.",
        (
            "who resolves our hostnames, and where did we buy them?",
            "how soon after editing a record do visitors see it?",
        ),
    ),
    "people/design": (
        "Design contact",
        "Chen Jing owns the design system in Figma; ask her before adding a new colour or icon.",
        (
            "who must approve a new visual token for the component library?",
            "where are the mockups and UI kit kept?",
        ),
    ),
    "db/replica": (
        "Read replica",
        "Reports run against the read replica, which lags the primary by up to 30 seconds.",
        (
            "why might analytics numbers be slightly stale?",
            "which copy of the database should dashboards query?",
        ),
    ),
    "ops/postmortem": (
        "Incident postmortems",
        "After every outage we write a blameless postmortem within 48 hours and file follow-up tickets in Jira.",
        (
            "what paperwork is due after the site goes down?",
            "where do the action items from a failure review get tracked?",
        ),
    ),
    "tools/ci": (
        "CI pipeline",
        "GitHub Actions runs lint, type checks and tests on every push; the full pipeline takes about 12 minutes.",
        (
            "how long do the automated verifications on each upload take?",
            "which service verifies code style when someone shares a branch?",
        ),
    ),
    "people/hours": (
        "Working hours",
        "Maria works from Lisbon, 10:00-18:00 local time, and does not answer messages on weekends.",
        (
            "when can I reach the Portugal-based colleague?",
            "will she reply if I ping her on Saturday?",
        ),
    ),
    "arch/queue": (
        "Job queue",
        "Background jobs go through Celery with RabbitMQ as the broker; failed jobs retry three times with backoff.",
        (
            "what handles asynchronous work outside web requests?",
            "how many attempts does a task get before giving up?",
        ),
    ),
    "ops/staging": (
        "Staging environment",
        "Staging mirrors production at staging.example.com and is reset from an anonymised snapshot every Monday.",
        (
            "where can I try changes on a copy of the live site?",
            "how often is the pre-release server's data refreshed?",
        ),
    ),
    "tools/laptop": (
        "Laptop",
        "The user works on a 14-inch MacBook Pro M3 with 36 GB of RAM and an external 4K monitor.",
        (
            "what hardware does the person develop on?",
            "how much memory does their computer have?",
        ),
    ),
    "db/pool": (
        "Connection pooling",
        "PgBouncer sits in front of Postgres in transaction mode with a pool of 50 connections per app.",
        (
            "what limits how many sessions the services open to the relational store?",
            "which proxy multiplexes SQL clients?",
        ),
    ),
}

ZH = {
    "运维/缓存": (
        "Redis 缓存",
        "会话数据存在 Redis，过期时间 24 小时，集群三个节点由 Sentinel 管理。",
        ("用户登录状态多久会失效？", "一台机器挂了内存库还能用吗？"),
    ),
    "数据库/迁移": (
        "数据库迁移",
        "表结构变更用 Alembic 管理，启动 API 前先执行 alembic upgrade head，已合并的迁移脚本不许修改。",
        ("服务起来之前字段改动怎么生效？", "已经进主干的变更文件能再编辑吗？"),
    ),
    "人员/提交风格": (
        "提交信息格式",
        "用户习惯用祈使句写提交信息，不超过 72 个字符，结尾附上工单号。",
        ("版本记录的说明文字该怎么写？", "任务编号放在改动描述的什么位置？"),
    ),
    "工具/终端": (
        "终端配置",
        "用户的 shell 是 zsh，装了 oh-my-zsh 和 starship 提示符，别名写在 ~/.zshrc 里。",
        ("命令行用的是哪种解释器？", "快捷指令定义在哪个文件？"),
    ),
    "运维/自动扩容": (
        "自动扩缩容",
        "网站部署在 3 到 12 个 Pod 之间伸缩，CPU 连续五分钟超过百分之七十就扩容。",
        ("流量大的时候集群怎么加实例？", "前端副本最少几个最多几个？"),
    ),
    "运维/域名": (
        "域名解析",
        "域名在 Namecheap 注册，解析由 Cloudflare 提供，修改记录大约五分钟生效。",
        ("我们的网址是在哪家买的？", "改完 DNS 条目多快能看到效果？"),
    ),
    "人员/设计": (
        "设计负责人",
        "陈静负责 Figma 里的设计系统，新增颜色或图标前先问她。",
        ("加新的视觉元素要找谁同意？", "界面稿和组件库放在哪个工具里？"),
    ),
    "数据库/只读副本": (
        "只读副本",
        "报表查询走只读副本，和主库最多有 30 秒延迟。",
        ("为什么统计数字有时候不是最新的？", "数据看板该连哪台数据库？"),
    ),
    "运维/故障复盘": (
        "故障复盘",
        "每次线上事故后 48 小时内写无责复盘，后续改进项记到 Jira。",
        ("网站挂掉之后要交什么文档？", "事后的待办事项在哪里跟踪？"),
    ),
    "工具/持续集成": (
        "持续集成",
        "每次推送 GitHub Actions 都会跑代码检查、类型检查和测试，完整流水线约十二分钟。",
        ("上传分支后自动校验要等多久？", "哪个平台负责审查编码规范？"),
    ),
    "人员/工作时间": (
        "工作时间",
        "玛丽亚在里斯本，当地时间十点到六点上班，周末不回消息。",
        ("葡萄牙那位同事几点能联系上？", "礼拜六找她会有回复吗？"),
    ),
    "架构/任务队列": (
        "任务队列",
        "后台任务通过 Celery 执行，RabbitMQ 做消息代理，失败的任务重试三次。",
        ("异步的活儿靠什么处理？", "作业出错后会再尝试几回？"),
    ),
    "运维/预发环境": (
        "预发环境",
        "预发环境地址是 staging.example.com，和生产一致，每周一用脱敏快照重置数据。",
        ("上线前在哪里验证改动？", "测试服务器的资料多久刷新一次？"),
    ),
    "工具/电脑": (
        "开发电脑",
        "用户用 14 寸 MacBook Pro M3，36 GB 内存，外接一台 4K 显示器。",
        ("他平时在什么机器上写代码？", "屏幕外设是什么规格？"),
    ),
    "数据库/连接池": (
        "连接池",
        "Postgres 前面放了 PgBouncer，事务模式，每个应用最多 50 个连接。",
        ("服务打开的数据库会话数量怎么限制？", "哪个代理负责复用 SQL 客户端？"),
    ),
}


def build(root: Path) -> None:
    """These entries and the original set's 40 in one store under ``root`` (all of them
    distractors for every question)."""
    original.build(root)
    for entry_id, (title, body, _) in {**EN, **ZH}.items():
        write_entry(root, entry_id, title, [], f"# {title}\n\n{body}\n")


def questions(lang: str) -> list[tuple[str, str]]:
    """(question, the entry that answers it) for ``en`` or ``zh``: this set's only."""
    table = EN if lang == "en" else ZH
    return [(q, entry_id) for entry_id, (_, _, qs) in table.items() for q in qs]
