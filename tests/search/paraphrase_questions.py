"""A paraphrase set (issue 36 item 2): questions that share almost no words with the entry
that answers them, 40 English and 40 Chinese, over 40 store entries (20 per language).

Each entry has two questions written the way a person asks when they do not remember the
note's words ("a new version broke production, how do we undo it?" for "Rolling back a
release"). ``tests/search/test_paraphrase_set.py`` checks the set's shape (size, at most
one shared content term between a question and its entry); ``benchmarks/paraphrase_quality.py``
scores it. The targets (hybrid top-1 ≥ 0.75, top-3 ≥ 0.9) need a multilingual model.
"""

from __future__ import annotations

from pathlib import Path

from tests.search.conftest import write_entry

# id: (title, body, (question, question))
EN = {
    "ops/backups": (
        "Database backups",
        "The orders Postgres is dumped every night at 02:00 with pg_dump and the dumps are kept for 30 days in S3.",
        ("how long are copies of the shop's data retained?", "at what hour does the snapshot job for our storage run?"),
    ),
    "ops/rollback": (
        "Rolling back a release",
        "To revert a bad deploy, pick the previous image in the release dashboard and redeploy it; it takes about two minutes.",
        (
            "a new version broke production, how do we undo it?",
            "how quickly can we return to the earlier build after a faulty ship?",
        ),
    ),
    "ops/oncall": (
        "On-call rota",
        "The on-call engineer answers pages within 15 minutes; the weekly rota lives in the shared calendar.",
        ("who responds when alerts fire at night, and how fast?", "where is the schedule of who handles emergencies?"),
    ),
    "tools/editor": (
        "Editor settings",
        "Neovim with the gruvbox colour scheme and relative line numbers.",
        (
            "which text tool and theme does the user code in?",
            "what does the user's terminal-based writing program look like?",
        ),
    ),
    "api/limits": (
        "API rate limits",
        "Each API key may make at most 600 requests per minute; beyond that the server answers 429.",
        (
            "how many calls can one client token send before being throttled?",
            "what happens when a customer hammers our endpoints too often?",
        ),
    ),
    "ops/certs": (
        "TLS certificates",
        "Certificates expire every 90 days; renew them with certbot renew, then reload nginx.",
        (
            "how do we keep https working when the padlock is about to lapse?",
            "what is the procedure when the site's security credentials run out?",
        ),
    ),
    "ops/logs": (
        "Log search",
        "Production logs are collected in Loki; query them in Grafana by service name. They are kept for seven days.",
        (
            "where do I look at what the live servers printed?",
            "how far back can we inspect output from running programs?",
        ),
    ),
    "team/review": (
        "Code review rules",
        "Every merge request needs two approvals; changes to payments also need Wang Lei's approval.",
        ("how many colleagues must sign off before a branch lands?", "who else must okay edits touching billing?"),
    ),
    "tools/devenv": (
        "Local development",
        "Start the dependencies with Docker Compose: run make setup once, then make dev.",
        (
            "how do I get the project running on my laptop?",
            "what commands bring up the supporting containers for hacking at home?",
        ),
    ),
    "ops/keys": (
        "Access key rotation",
        "Cloud access keys are rotated every quarter; new keys are stored in Vault under the prod path.",
        (
            "how often do we swap the credentials for our hosting provider?",
            "where are fresh secrets placed after they are replaced?",
        ),
    ),
    "qa/flaky": (
        "Flaky checkout test",
        "The checkout test fails intermittently because of a timing race; it is quarantined until the clock is mocked.",
        (
            "why does the purchase flow's automated check sometimes break?",
            "which unreliable spec is currently set aside?",
        ),
    ),
    "people/ui": (
        "UI preferences",
        "The user likes a dark theme and a minimal interface, and hates pop-ups.",
        ("what look does the person want for screens?", "which kind of interruptions annoy them in apps?"),
    ),
    "ops/deploy-day": (
        "Deploy schedule",
        "We deploy alpha to Fly.io every Friday afternoon after the smoke tests pass.",
        (
            "on which weekday does the frontend ship?",
            "which hosting service receives new versions at the end of the week?",
        ),
    ),
    "people/payments": (
        "Payments owner",
        "Wang Lei owns the payment gateway and the refund flow; when he is on leave, ask Li Na.",
        ("who should I ask about money-back requests?", "who covers for the billing lead during vacation?"),
    ),
    "team/hiring": (
        "Hiring loop",
        "Backend candidates get a 45-minute Go exercise, a system design talk and a culture interview.",
        ("what does recruiting server engineers involve?", "how long is the coding task for applicants?"),
    ),
    "ops/bill": (
        "Cloud bill",
        "Storage costs rose 18 percent; old logs were moved to cold storage to save money.",
        ("why did our hosting invoice go up?", "what did we do to cut spending on archives?"),
    ),
    "arch/search": (
        "Search engine choice",
        "We use Milvus for vectors and SQLite FTS5 for keywords because both run embedded.",
        ("which database holds the embeddings, and why?", "what powers full-text lookup without a separate server?"),
    ),
    "qa/rules": (
        "Testing rules",
        "Unit tests use pytest; the whole suite must pass before a commit and coverage stays above 80 percent.",
        ("what framework do we check code with?", "what is the minimum share of lines exercised?"),
    ),
    "mobile/stack": (
        "Mobile app stack",
        "The Android app is written in Kotlin and the iOS app in Swift; both share a GraphQL backend.",
        ("what languages are the phone clients built in?", "how do the handset programs talk to the server?"),
    ),
    "team/standup": (
        "Daily standup",
        "Standup is at 09:30 on Zoom, fifteen minutes, cameras optional.",
        ("when and where is the morning sync meeting?", "do people need to show their faces in the call?"),
    ),
}

ZH = {
    "运维/数据库备份": (
        "数据库备份",
        "每天凌晨两点用 pg_dump 备份订单库，保留 30 天，备份文件放在 S3。",
        ("顾客购买记录的副本能留多久？", "夜里保存商城资料的任务几点跑？"),
    ),
    "运维/发布回滚": (
        "发布回滚步骤",
        "上线出问题时，在发布平台选择上一个版本，点击回滚，五分钟内完成。",
        ("新版本把线上搞坏了怎么撤销？", "出故障后恢复旧版要多长时间？"),
    ),
    "运维/值班安排": (
        "值班安排",
        "周末值班表在共享日历里，本周是张伟，紧急情况直接打他的手机。",
        ("这礼拜六日谁负责处理突发状况？", "节假日轮守的名单去哪看？"),
    ),
    "接口/限流": (
        "接口限流",
        "对外 API 每个密钥每分钟最多 600 次请求，超过就返回 429。",
        ("一个客户端令牌六十秒能调用几回？", "调用太频繁会收到什么错误码？"),
    ),
    "运维/证书续期": (
        "证书续期",
        "证书每 90 天过期。续期方法：运行 certbot renew，然后重新加载 nginx。",
        ("网站的 https 凭证快失效了怎么办？", "安全凭证多久要换一次？"),
    ),
    "运维/日志查询": (
        "日志查询",
        "线上日志统一收集到 Loki，在 Grafana 里按服务名查询，保留七天。",
        ("生产环境的输出信息去哪儿看？", "运行记录能往回翻几天？"),
    ),
    "团队/代码评审": (
        "代码评审规则",
        "每个合并请求至少需要两位同事批准，涉及支付的改动还要王磊审核。",
        ("改动合进主干前要几个人同意？", "动了收款功能需要谁把关？"),
    ),
    "工具/开发环境": (
        "本地开发环境",
        "本地开发用 Docker Compose 启动依赖：先执行 make setup，再运行 make dev。",
        ("在自己电脑上怎么把项目跑起来？", "笔记本上搭建工程要敲哪些命令？"),
    ),
    "运维/密钥轮换": (
        "访问密钥轮换",
        "云服务的访问密钥每季度轮换一次，新密钥存放在 Vault 的 prod 路径下。",
        ("云平台的凭据多长时间更换？", "更换后的新凭据保存在哪里？"),
    ),
    "质量/结账测试": (
        "结账测试不稳定",
        "结账流程的测试偶尔失败，原因是时序竞争，在模拟时钟之前先隔离。",
        ("下单那块的自动化检查为什么时好时坏？", "哪个用例现在被暂时搁置了？"),
    ),
    "人员/界面偏好": (
        "界面偏好",
        "用户喜欢深色主题和简洁的界面，讨厌弹窗。",
        ("他想要什么样的外观风格？", "哪类打扰让这位使用者反感？"),
    ),
    "人员/支付负责人": (
        "支付负责人",
        "支付网关和退款流程由王磊负责，有问题先找他；他休假时找李娜。",
        ("钱款退回的事情该问谁？", "收款模块主管放假时谁顶上？"),
    ),
    "团队/招聘流程": (
        "招聘流程",
        "后端候选人要做 45 分钟的 Go 编程题、系统设计面谈和文化面试。",
        ("招服务端工程师要经过哪些环节？", "应聘者的编码考核有多长时间？"),
    ),
    "运维/云账单": (
        "云账单",
        "存储费用上涨了百分之十八，旧日志挪到了冷存储以节省开支。",
        ("为什么这个月托管开销变多了？", "我们采取了什么办法压低归档花费？"),
    ),
    "质量/测试规范": (
        "测试规范",
        "单元测试用 pytest，提交前必须跑通全部测试，覆盖率不低于百分之八十。",
        ("写好的代码靠什么框架检验？", "代码行被执行到的比例最低要多少？"),
    ),
    "移动/技术栈": (
        "移动端技术栈",
        "安卓应用用 Kotlin 编写，iOS 应用用 Swift，两者共用一个 GraphQL 后端。",
        ("手机客户端分别用什么语言开发？", "两个手机端怎么和服务器通信？"),
    ),
    "团队/每日站会": (
        "每日站会",
        "站会每天九点半在 Zoom 上开，十五分钟，摄像头可开可不开。",
        ("早上的同步碰头几点在哪开？", "开晨会必须露脸吗？"),
    ),
    "运维/部署时间": (
        "部署时间",
        "每周五下午冒烟测试通过后，把 alpha 部署到 Fly.io。",
        ("前端一般在星期几上线？", "新版本推到哪个托管平台？"),
    ),
    "架构/搜索选型": (
        "搜索引擎选型",
        "向量用 Milvus，关键词用 SQLite FTS5，因为两者都能嵌入运行。",
        ("语义检索的数据放在什么库里？", "全文匹配为什么不需要单独的服务器？"),
    ),
    "团队/周报": (
        "周报",
        "每周五五点前把周报发到团队群，写清本周完成、阻塞和下周计划。",
        ("每个礼拜的工作总结什么时候交？", "总结里要包含哪些内容？"),
    ),
}


def build(root: Path) -> None:
    """Both languages' entries in one store under ``root`` (each language's entries are the
    other's distractors too)."""
    for entry_id, (title, body, _) in {**EN, **ZH}.items():
        write_entry(root, entry_id, title, [], f"# {title}\n\n{body}\n")


def questions(lang: str) -> list[tuple[str, str]]:
    """(question, the entry that answers it) for ``en`` or ``zh``."""
    table = EN if lang == "en" else ZH
    return [(q, entry_id) for entry_id, (_, _, qs) in table.items() for q in qs]
