package tools

// zhTexts is the default locale. The unknown-tool text and the truncation note
// are the lesson's exact strings.
var zhTexts = catalog{
	unknownToolF: "没有名为 %s 的工具。可用的工具是：%s",
	noToolsF:     "没有名为 %s 的工具。现在没有任何可用的工具。",
	toolList:     "、",
	failureF:     "%s：%s",
	badJSONF:     "参数不是合法的 JSON（%s），请重新发送一个 JSON 对象。收到的原文开头：%s",
	badArgsF:     "参数不符合要求：%s。",
	problemSep:   "；",
	nameSep:      "、",
	notObjectF:   "参数必须是一个 JSON 对象，收到的是%s",
	missingF:     "缺少必填参数 %s",
	missingManyF: "缺少必填参数 %s",
	wrongTypeF:   "参数 %s 应为%s，收到的是 %s",
	tooSmallF:    "参数 %s 不能小于 %s，收到的是 %s",
	tooLargeF:    "参数 %s 不能大于 %s，收到的是 %s",
	tooShortF:    "参数 %s 至少要有 %s 个字符，收到的是 %s",
	unknownF:     "不认识的参数 %s（可用的参数：%s）",
	unknownManyF: "不认识的参数 %s（可用的参数：%s）",
	noneAllowed:  "无",
	panicF:       "工具内部出错：%v",
	canceled:     "已取消",
	typeNames: map[string]string{
		"string": "字符串", "integer": "整数", "number": "数字", "boolean": "布尔值",
		"object": "对象", "array": "数组", "null": " null",
	},

	truncNoteF: "\n…（中间已截断 %d 字符，全文共 %d 字符；需要中间部分请带 offset 再读一次）…\n",

	outsideF:        "路径 %q 在工作目录之外",
	nulF:            "路径 %q 里有 NUL 字节",
	notExistF:       `文件 %s 不存在；不确定路径时先用 glob 找，例如 {"pattern":"**/%s"}`,
	isDirF:          `%s 是目录，不是文件；要列出其中的文件请用 glob，例如 {"pattern":"%s"}`,
	notRegularF:     "%s 不是普通文件（%s），不能读取",
	kindPipe:        "命名管道",
	kindDevice:      "设备文件",
	kindSocket:      "套接字",
	kindOther:       "特殊文件",
	permissionF:     "没有权限读取 %s",
	ioErrorF:        "读取 %s 失败：%s",
	patternOutsideF: "模式 %q 指向工作目录之外",
	patternNulF:     "模式 %q 里有 NUL 字节",
	badPatternF:     "模式 %q 不合法：检查 [ ] 是否成对、\\ 后面是否跟着字符",
	dotDotF:         "模式 %q 里的 .. 只能出现在第一个通配符之前",

	readFileDescF: "读取工作目录里的一个文本文件，返回带行号的内容。" +
		"知道文件路径、需要看代码细节时使用；不知道路径先用 glob 找文件，找关键字用 grep。" +
		"默认从第 1 行起读 %d 行，用 offset 和 limit 读其他片段。" +
		"第一行说明读到的行号范围和文件总行数；之后每行是行号、一个制表符和该行内容；" +
		"超过 %d 字符的行会被截断；二进制文件只说明是二进制，不给内容；整个结果超过 %d 字符时中间会被截掉。" +
		`例子：{"path":"src/calc.js","offset":1,"limit":100}`,
	readPathDesc:     "文件路径，相对于工作目录，用 / 分隔，例如 src/calc.js；glob 或 grep 用双引号写出的路径请原样传入，连同引号。必填，不能指向工作目录之外。",
	readOffsetDesc:   "从第几行开始读，从 1 算起。默认 1。",
	readLimitDescF:   "最多读多少行，1 到 %d（更大的值按 %d 行读）。默认 %d。",
	limitCapF:        "（limit %d 超过了每次最多读取的 %d 行）",
	headerF:          "%s（第 %d–%d 行，共 %d 行）",
	emptyFileF:       "%s（空文件，共 0 行）",
	moreLinesF:       "（后面还有 %d 行；继续读请用 offset=%d）",
	headerAtLeastF:   "%s（第 %d–%d 行，至少 %d 行，文件太大没有数完）",
	moreAtLeastF:     "（后面至少还有 %d 行；继续读请用 offset=%d）",
	lineCutF:         "…（此行过长，只显示前 %d 字符）",
	binaryF:          "%s 是二进制文件（%d 字节），不显示内容。",
	readCutF:         "（读取 %d MiB 后停止，这是一次读取的上限；第 %d 行之后的内容没有读到）",
	offsetUnreachedF: "没有读到 offset %d：读取 %s 到 %d MiB（一次读取的上限）时停止，停在第 %d 行之后",
	offsetPastF:      "offset %d 超出了文件末尾（%s 共 %d 行）",

	globDesc: "按文件名模式列出工作目录里的文件。" +
		"想知道有哪些文件、某类文件在哪里时使用；搜文件内容请用 grep。" +
		"模式相对于工作目录，用 / 分隔：** 跨任意层目录，* 匹配一层目录里的任意字符，? 匹配一个字符。" +
		"跳过 node_modules、.git、dist 目录，不跟随符号链接。" +
		"返回按路径排序的相对路径，每行一个，最多 limit 条，并说明还有多少条没显示；" +
		`路径里有冒号、控制字符（如换行）或不是 UTF-8 的字节时，用双引号括起并按 Go 的转义写出（\n、\xff），read_file 接受这种写法；` +
		"没有匹配时说明工作目录里一共有多少个文件。" +
		`例子：{"pattern":"**/*.js"}、{"pattern":"test/**/*.test.js"}`,
	globPatternDesc: "文件名模式，例如 **/*.js 或 src/*.ts。必填，不能指向工作目录之外。",
	globLimitDescF:  "最多返回多少条路径，1 到 %d。默认 %d。",
	globMoreF:       "（还有 %d 个文件没有显示；请用更具体的模式缩小范围）",
	globEmptyF:      "没有文件匹配 %q。工作目录里一共有 %d 个文件（不算 node_modules、.git、dist 里的）。",

	grepDescF: "按正则表达式搜索工作目录里的文件内容（RE2 语法，逐行匹配；不区分大小写请在开头加 (?i)）。" +
		"想找某个名字、字符串或报错出现在哪里时使用；找到位置后用 read_file 看上下文。" +
		"每条命中占一行，格式是 路径:行号:内容；最多 %d 条，文件按路径排序；" +
		"路径里有冒号、控制字符或不是 UTF-8 的字节时，按 glob 的写法用双引号括起并转义；" +
		"每行最多 %d 字符，过长时保留匹配附近的部分；跳过二进制文件和 node_modules、.git、dist 目录。" +
		"可以用 glob 参数先缩小文件范围。" +
		`例子：{"pattern":"a / b","glob":"src/**/*.js"}`,
	grepPatternDesc: `要搜索的正则表达式（RE2 语法），例如 function\s+divide。必填。`,
	grepGlobDesc:    "只搜索路径匹配这个模式的文件，语法同 glob 工具，例如 **/*.js。默认搜索所有文件。",
	grepMoreF:       "（已达到 %d 条上限，后面还有命中；请把 pattern 写得更具体，或用 glob 参数缩小文件范围）",
	grepFileCutF:    "（有 %d 个文件只搜索了开头：每个文件最多搜索 %d MiB；第一个是 %s）",
	grepCallCutF:    "（已读取 %d MiB，达到一次搜索的上限；%s 之后的文件没有搜索，请用 glob 参数缩小文件范围）",
	grepNoneF:       "没有匹配 %q 的行（搜索了 %d 个文件）。",
	grepNoneGlobF:   "没有匹配 %q 的行（搜索了 %d 个匹配 %q 的文件）。",
	badRegexpF:      "正则表达式 %q 不合法：%s",
	perlOnlyHint:    "（RE2 不支持前瞻、后顾和反向引用，请去掉它们改写）",
}
