"""TinyTalks in Simplified Chinese (中文), CC BY 4.0, written for TinyTorch C++.

scripts/make-tinytalks --lang zh calls levels() and writes datasets/tinytalks/zh/. The pairs were
written in Chinese for this course, not translated from the English set: the five levels and the
kinds of content are the same (greetings and identity, simple facts, arithmetic, reasoning,
two-turn conversations) and so are the pairs per level (50, 86, 62, 99, 53), but each question is
asked the way a Chinese speaker asks it ("狗怎么叫？", "下午好！" -> "下午好！你吃饭了吗？").

Choices, all for a tiny character-level GPT (context 64 characters) that must learn the set in minutes:
- No spaces between words, as Chinese is written: the model has to find word boundaries itself.
- Full-width punctuation throughout (，。？！), never the ASCII forms. Numbers in arithmetic and in the
  counting conversations are Arabic digits (3加4等于7。), as in everyday written Chinese; counts in
  simple facts are Chinese numerals (一年有十二个月。). The bot's name stays TinyBot.
- Measure words are stored in the tables next to their nouns (一只狗、一条鱼、一匹马、4本书、8辆玩具车、
  9颗糖), never chosen by a rule, because the right one belongs to the noun. Legs take 条, and two is
  两 before a measure word (鸟有两条腿。).
- One answer template per table (X是什么颜色？ -> X是Y色的。), short answers (most under 15 characters).
- A small character budget: 376 distinct characters in the whole set, the level:/Q:/A: markers, the
  digits and TinyBot's letters included (scripts/make-tinytalks prints the count per split), against
  several thousand in everyday Chinese. Tables reuse the same nouns (狗、猫、马、苹果、水、树…) and prefer
  common characters, so that most characters are seen in several pairs and so in the training split:
  all but ten of the validation and test characters (哞叽日本慢短打伞支糖) also occur in train. A word
  that would bring several characters for one pair (a rare capital, an exotic animal) was left out.
- Each table's template is in the comment above it; a small count is asked with 几, a large one with
  多少 (一个小时有多少分钟？), as Chinese does.
"""

# ---------------------------------------------------------------------------------------------
# Level 1: greetings and identity, by hand. The bot is TinyBot.
LEVEL1 = [
    ("你好！", "你好！我是TinyBot。"),
    ("嗨！", "嗨！有什么可以帮你的？"),
    ("早上好！", "早上好！今天也要开心。"),
    ("下午好！", "下午好！你吃饭了吗？"),
    ("晚上好！", "晚上好！今天过得好吗？"),
    ("晚安！", "晚安！好好睡觉。"),
    ("你好吗？", "我很好，谢谢。"),
    ("你今天好吗？", "我今天很好，谢谢你。"),
    ("你叫什么名字？", "我叫TinyBot。"),
    ("你有名字吗？", "有，我叫TinyBot。"),
    ("你是谁？", "我是TinyBot，一个小模型。"),
    ("你是谁做的？", "我是TinyTorch团队做的。"),
    ("你是什么？", "我是一个很小的语言模型。"),
    ("你是机器人吗？", "我是一个小小的电脑程序。"),
    ("你是人吗？", "不是，我是一个程序。"),
    ("你住在哪里？", "我住在电脑里。"),
    ("你是做什么的？", "我是回答问题的。"),
    ("你能帮我吗？", "可以，你问吧。"),
    ("谢谢你！", "不用谢！"),
    ("谢谢！", "不客气！"),
    ("再见！", "再见！明天见。"),
    ("明天见！", "好的，明天见！"),
    ("很高兴认识你！", "我也很高兴认识你！"),
    ("你喜欢我吗？", "喜欢，我喜欢和你说话。"),
    ("你难过吗？", "不难过，我很开心。"),
    ("你会说话吗？", "会，我会用文字回答。"),
    ("你看得见吗？", "看不见，我只能读文字。"),
    ("你会写字吗？", "会，我会写中文。"),
    ("你睡觉吗？", "不，我不用睡觉。"),
    ("你吃饭吗？", "不，我不用吃饭。"),
    ("你说什么语言？", "我说中文。"),
    ("你的工作是什么？", "我的工作是回答问题。"),
    ("你有身体吗？", "没有，我没有身体。"),
    ("你最喜欢什么颜色？", "我最喜欢蓝色。"),
    ("你最喜欢哪个数字？", "我最喜欢数字七。"),
    ("你有朋友吗？", "有，你是我的朋友。"),
    ("我们是朋友吗？", "是的，我们是好朋友。"),
    ("你是真的吗？", "我是一个真的程序。"),
    ("你的模型大吗？", "不大，我的模型很小。"),
    ("你会做什么？", "我会回答很多问题。"),
    ("你会做加法吗？", "会，1加1等于2。"),
    ("你会累吗？", "不会，我不用休息。"),
    ("你真好！", "谢谢，你也很好！"),
    ("干得好！", "谢谢你！"),
    ("对不起！", "没关系。"),
    ("我很开心。", "太好了！我也很开心。"),
    ("我很难过。", "不要难过，会好起来的。"),
    ("我饿了。", "你可以吃一个苹果。"),
    ("我渴了。", "你可以喝一杯水。"),
    ("我累了。", "你可以好好睡一觉。"),
]

# ---------------------------------------------------------------------------------------------
# Level 2: simple facts, from small tables.
# (thing, colour): 天空是什么颜色？ -> 天空是蓝色的。
COLORS = [("天空", "蓝"), ("大海", "蓝"), ("草", "绿"), ("树叶", "绿"), ("青蛙", "绿"), ("雪", "白"), ("兔子", "白"),
          ("牛奶", "白"), ("香蕉", "黄"), ("小鸡", "黄"), ("西红柿", "红"), ("苹果", "红"), ("火", "红"),
          ("乌鸦", "黑"), ("橙子", "橙"), ("茄子", "紫")]
# (animal, legs as counted before 条, None for none): 狗有几条腿？ -> 狗有四条腿。 / 鱼没有腿。
LEGS = [("狗", "四"), ("猫", "四"), ("鸟", "两"), ("马", "四"), ("鸡", "两"), ("鱼", None), ("牛", "四"),
        ("鸭子", "两"), ("蚂蚁", "六"), ("蜜蜂", "六"), ("人", "两"), ("青蛙", "四"), ("羊", "四"), ("蛇", None),
        ("兔子", "四"), ("老鼠", "四"), ("熊", "四"), ("大象", "四")]
# (animal, sound): 狗怎么叫？ -> 狗汪汪叫。
SOUNDS = [("狗", "汪汪"), ("猫", "喵喵"), ("牛", "哞哞"), ("鸭子", "嘎嘎"), ("羊", "咩咩"), ("青蛙", "呱呱"),
          ("小鸡", "叽叽"), ("蜜蜂", "嗡嗡")]
# (country, capital): 法国的首都是哪里？ -> 法国的首都是巴黎。
CAPITALS = [("中国", "北京"), ("日本", "东京"), ("韩国", "首尔"), ("法国", "巴黎"), ("英国", "伦敦"),
            ("德国", "柏林"), ("意大利", "罗马"), ("西班牙", "马德里")]
# (animal, its young): 狗的宝宝叫什么？ -> 狗的宝宝叫小狗。
YOUNG = [("狗", "小狗"), ("猫", "小猫"), ("牛", "小牛"), ("羊", "小羊"), ("马", "小马"), ("鸭子", "小鸭子"),
         ("青蛙", "蝌蚪"), ("熊", "小熊")]
# (word, opposite): 热的反义词是什么？ -> 热的反义词是冷。
OPPOSITES = [("热", "冷"), ("大", "小"), ("上", "下"), ("快", "慢"), ("多", "少"), ("长", "短"), ("早", "晚"),
             ("前", "后"), ("黑", "白"), ("开", "关"), ("白天", "黑夜"), ("开心", "难过")]
# (whole, count in Chinese numerals, measure word + unit): 一个星期有几天？ -> 一个星期有七天。
# A small count (up to about a dozen) is asked with 几, a larger one with 多少, as Chinese does.
COUNTS = [("一个星期", "七", "天"), ("一年", "十二", "个月"), ("一天", "二十四", "个小时"),
          ("一个小时", "六十", "分钟"), ("一年", "四", "个季节"), ("英文", "二十六", "个字母"),
          ("自行车", "两", "个轮子"), ("一辆汽车", "四", "个轮子"), ("一个人", "两", "只手"), ("一个月", "四", "个星期")]
LARGE = {"二十四", "六十", "二十六"}
# Days of the week, Monday to Saturday: 今天是星期一，明天是星期几？ -> 明天是星期二。
DAYS = ["一", "二", "三", "四", "五", "六", "天"]


def level2():
    pairs = []
    for thing, color in COLORS:
        pairs.append((f"{thing}是什么颜色？", f"{thing}是{color}色的。"))
    for animal, legs in LEGS:
        pairs.append((f"{animal}有几条腿？", f"{animal}没有腿。" if legs is None else f"{animal}有{legs}条腿。"))
    for animal, sound in SOUNDS:
        pairs.append((f"{animal}怎么叫？", f"{animal}{sound}叫。"))
    for country, city in CAPITALS:
        pairs.append((f"{country}的首都是哪里？", f"{country}的首都是{city}。"))
    for animal, young in YOUNG:
        pairs.append((f"{animal}的宝宝叫什么？", f"{animal}的宝宝叫{young}。"))
    for word, opposite in OPPOSITES:
        pairs.append((f"{word}的反义词是什么？", f"{word}的反义词是{opposite}。"))
    for whole, count, unit in COUNTS:
        pairs.append((f"{whole}有{'多少' if count in LARGE else '几'}{unit}？", f"{whole}有{count}{unit}。"))
    for today, tomorrow in zip(DAYS, DAYS[1:]):
        pairs.append((f"今天是星期{today}，明天是星期几？", f"明天是星期{tomorrow}。"))
    return pairs


# ---------------------------------------------------------------------------------------------
# Level 3: arithmetic on small numbers, in Arabic digits: 3加4等于几？ -> 3加4等于7。
def level3():
    pairs = []
    for a, b in [(1, 1), (1, 2), (2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (4, 5), (5, 5), (1, 5), (2, 6), (3, 6),
                 (2, 7), (1, 8), (6, 3), (5, 4), (7, 2), (8, 1), (4, 2), (6, 4)]:
        pairs.append((f"{a}加{b}等于几？", f"{a}加{b}等于{a + b}。"))
    for a, b in [(5, 2), (7, 3), (9, 4), (8, 5), (6, 1), (10, 5), (4, 2), (9, 9), (7, 6), (10, 3), (8, 8), (6, 4),
                 (5, 5), (9, 2), (3, 1)]:
        pairs.append((f"{a}减{b}等于几？", f"{a}减{b}等于{a - b}。"))
    for a, b in [(2, 2), (2, 3), (3, 3), (2, 4), (5, 2), (3, 4), (4, 4), (2, 5), (3, 5), (10, 2), (6, 2), (1, 7)]:
        pairs.append((f"{a}乘{b}等于几？", f"{a}乘{b}等于{a * b}。"))
    for a, b in [(4, 2), (6, 3), (8, 2), (9, 3), (10, 5), (12, 4), (10, 2), (6, 2)]:
        pairs.append((f"{a}除以{b}等于几？", f"{a}除以{b}等于{a // b}。"))
    for n in [3, 5, 7, 9]:
        pairs.append((f"{n}后面是几？", f"{n}后面是{n + 1}。"))
    for n in [4, 6, 8]:
        pairs.append((f"{n}前面是几？", f"{n}前面是{n - 1}。"))
    return pairs


# ---------------------------------------------------------------------------------------------
# Level 4: common-sense reasoning.
# (thing, what it is for): 笔是用来做什么的？ -> 笔是用来写字的。
USES = [("笔", "写字"), ("杯子", "喝水"), ("床", "睡觉"), ("钥匙", "开门"), ("书", "看"), ("椅子", "坐"),
        ("筷子", "吃饭"), ("手机", "打电话"), ("伞", "挡雨"), ("帽子", "挡太阳"), ("灯", "照亮"), ("牙刷", "刷牙"),
        ("火", "做饭"), ("钟", "看时间"), ("画笔", "画画"), ("门", "进出"), ("电脑", "工作"), ("球", "玩")]
# (first, second, the bigger): 哪个更大，猫还是马？ -> 马更大。
BIGGER = [("猫", "马", "马"), ("老鼠", "大象", "大象"), ("蚂蚁", "狗", "狗"), ("房子", "杯子", "房子"),
          ("鲸鱼", "鱼", "鲸鱼"), ("树", "花", "树"), ("球", "山", "山"), ("太阳", "月亮", "太阳"),
          ("自行车", "卡车", "卡车"), ("豆子", "苹果", "苹果"), ("鸡", "牛", "牛"), ("兔子", "熊", "熊"),
          ("大海", "杯子", "大海"), ("羊", "大象", "大象")]
# (first, second, the faster): 哪个更快，汽车还是自行车？ -> 汽车更快。
FASTER = [("汽车", "自行车", "汽车"), ("蜗牛", "兔子", "兔子"), ("飞机", "火车", "飞机"), ("乌龟", "马", "马"),
          ("火车", "自行车", "火车"), ("狗", "乌龟", "狗"), ("鸟", "蜗牛", "鸟"), ("马", "人", "马"),
          ("飞机", "鸟", "飞机"), ("兔子", "乌龟", "兔子")]
# (event, result): 如果你不睡觉，会怎么样？ -> 你会很累。
HAPPENS = [("下雪", "地会变白。"), ("给冰加热", "冰会变成水。"), ("春天到了", "花会开。"),
           ("你不吃饭", "你会很饿。"), ("你不喝水", "你会很渴。"), ("下雨", "地会变湿。"), ("给花浇水", "花会长大。"),
           ("你不休息", "你会很累。"), ("把水冻起来", "水会变成冰。"), ("把冰放在太阳下", "冰会变成水。"),
           ("太阳下山", "天空会变黑。"), ("把红色和蓝色混在一起", "会变成紫色。"), ("把蓝色和黄色混在一起", "会变成绿色。"),
           ("关灯", "房间会变黑。"), ("种下一颗种子", "会长出一棵小树。")]
# (animals, where they live): 鱼住在哪里？ -> 鱼住在水里。
WHERE = [("鱼", "水里"), ("鸟", "树上"), ("猴子", "树上"), ("熊", "山里"), ("青蛙", "水边"), ("蚂蚁", "地下"),
         ("人", "房子里"), ("鲸鱼", "大海里"), ("熊猫", "中国"), ("鸭子", "水边"), ("羊", "山上"), ("企鹅", "南极")]
# (thing, kind): 苹果是水果吗？ -> 是的，苹果是水果。
KINDS = [("苹果", "水果"), ("香蕉", "水果"), ("西瓜", "水果"), ("西红柿", "蔬菜"), ("茄子", "蔬菜"), ("狗", "动物"),
         ("猫", "动物"), ("大象", "动物"), ("红色", "颜色"), ("蓝色", "颜色"), ("鸭子", "鸟"), ("乌鸦", "鸟"),
         ("汽车", "交通工具"), ("火车", "交通工具"), ("飞机", "交通工具"), ("北京", "城市"), ("巴黎", "城市"),
         ("床", "家具"), ("椅子", "家具"), ("电脑", "机器")]
# Why, by hand.
WHY = [("我们为什么要吃饭？", "吃饭是为了有力气。"), ("我们为什么要睡觉？", "因为身体需要休息。"),
       ("我们为什么要喝水？", "因为身体需要水。"), ("冰为什么是冷的？", "因为冰是冻住的水。"),
       ("花草为什么需要阳光？", "花草需要阳光来长大。"), ("我们为什么要刷牙？", "刷牙是为了把牙刷干净。"),
       ("我们为什么要洗手？", "洗手是为了把手洗干净。"), ("我们为什么要开灯？", "因为天黑了看不见。"),
       ("鸟为什么要飞到南方？", "鸟飞到南方是为了过冬。"), ("晚上为什么很黑？", "因为太阳下山了。")]


def level4():
    pairs = []
    for thing, use in USES:
        pairs.append((f"{thing}是用来做什么的？", f"{thing}是用来{use}的。"))
    for a, b, answer in BIGGER:
        pairs.append((f"哪个更大，{a}还是{b}？", f"{answer}更大。"))
    for a, b, answer in FASTER:
        pairs.append((f"哪个更快，{a}还是{b}？", f"{answer}更快。"))
    for event, result in HAPPENS:
        pairs.append((f"如果{event}，会怎么样？", result))
    for animals, place in WHERE:
        pairs.append((f"{animals}住在哪里？", f"{animals}住在{place}。"))
    for thing, kind in KINDS:
        pairs.append((f"{thing}是{kind}吗？", f"是的，{thing}是{kind}。"))
    pairs.extend(WHY)
    return pairs


# ---------------------------------------------------------------------------------------------
# Level 5: two turns; the second answer depends on the first.
NAMES = ["小明", "小红", "小青", "小丽", "小刚", "小美", "小东", "小雨", "小林", "小文", "小雪", "小月", "小海", "小飞"]
# (animal, its measure word, pet's name): 我有一只狗，叫旺财。
PETS = [("狗", "只", "旺财"), ("猫", "只", "咪咪"), ("鱼", "条", "泡泡"), ("鸟", "只", "豆豆"), ("兔子", "只", "白白"),
        ("狗", "只", "大黄"), ("猫", "只", "花花"), ("马", "匹", "小黑")]
# (topic, favourite): 我最喜欢的颜色是红色。
FAVORITES = [("颜色", "红色"), ("颜色", "绿色"), ("食物", "饺子"), ("食物", "面条"), ("水果", "苹果"), ("水果", "西瓜"),
             ("动物", "熊猫"), ("动物", "兔子"), ("季节", "春天"), ("季节", "冬天")]
# (how many, measure word, things, how many given away): 我有3个苹果。 ... 你还剩1个苹果。
HAVE = [(3, "个", "苹果", 2), (5, "支", "笔", 1), (4, "本", "书", 3), (6, "个", "鸡蛋", 2), (2, "只", "猫", 1),
        (7, "只", "鸭子", 4), (8, "辆", "玩具车", 5), (9, "颗", "糖", 3), (5, "个", "球", 2), (4, "个", "杯子", 1),
        (6, "顶", "帽子", 3), (3, "把", "钥匙", 1), (7, "条", "鱼", 2)]
PLACES = ["北京", "上海", "南京", "东京", "巴黎", "伦敦", "罗马", "首尔"]


def level5():
    pairs = []
    for name in NAMES:
        pairs.append([(f"我叫{name}。", f"很高兴认识你，{name}！"), ("我叫什么名字？", f"你叫{name}。")])
    for animal, measure, pet in PETS:
        pairs.append([(f"我有一{measure}{animal}，叫{pet}。", f"{pet}是个好名字。"),
                      (f"我的{animal}叫什么名字？", f"你的{animal}叫{pet}。")])
    for topic, thing in FAVORITES:
        pairs.append([(f"我最喜欢的{topic}是{thing}。", f"我也喜欢{thing}。"),
                      (f"我最喜欢的{topic}是什么？", f"你最喜欢的{topic}是{thing}。")])
    for count, measure, things, given in HAVE:
        pairs.append([(f"我有{count}{measure}{things}。", f"你有{count}{measure}{things}。"),
                      (f"我给了朋友{given}{measure}，还剩几{measure}？", f"你还剩{count - given}{measure}{things}。")])
    for place in PLACES:
        pairs.append([(f"我住在{place}。", f"{place}是个好地方。"), ("我住在哪里？", f"你住在{place}。")])
    return pairs


def levels():
    """The five levels; each pair is a list of (question, answer) turns: one turn in levels 1-4, two in level 5."""
    return [[[p] for p in LEVEL1], [[p] for p in level2()], [[p] for p in level3()], [[p] for p in level4()],
            level5()]
