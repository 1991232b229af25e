// The two views of a lesson from one CommonMark parse: the terminal (`tito module view NN`) and the HTML
// page (`tito module view NN --html`, `tito lessons build`), and the repository's lessons read in both.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "core/code_highlight.h"
#include "core/curriculum.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/lesson_pages.h"
#include "core/markdown.h"
#include "scratch_dir.h"

namespace fs = std::filesystem;
using namespace tito;

namespace {

void put(const fs::path& file, const std::string& content) {
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::trunc) << content;
}

std::size_t count(const std::string& text, const std::string& piece) {
  std::size_t found = 0;
  for (std::size_t at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) ++found;
  return found;
}

std::set<std::string> ids_in(const std::string& html) {
  static const std::regex kId(R"re(\sid="([^"]*)")re");
  std::set<std::string> ids;
  for (auto it = std::sregex_iterator(html.begin(), html.end(), kId); it != std::sregex_iterator(); ++it) ids.insert((*it)[1]);
  return ids;
}

// Every href and src of the pages under `site` that stays inside it must lead to a file there and, with a
// #fragment, to an id of that page. Returns what does not, as "page: href".
std::vector<std::string> broken_links(const fs::path& site) {
  static const std::regex kTarget(R"re(\s(?:href|src)="([^"]*)")re");
  std::map<fs::path, std::string> pages;
  for (const auto& entry : fs::recursive_directory_iterator(site))
    if (entry.path().extension() == ".html") pages[entry.path().lexically_normal()] = read_file(entry.path());
  std::vector<std::string> broken;
  for (const auto& [page, html] : pages) {
    for (auto it = std::sregex_iterator(html.begin(), html.end(), kTarget); it != std::sregex_iterator(); ++it) {
      const std::string target = (*it)[1];
      if (target.rfind("https://", 0) == 0 || target.rfind("http://", 0) == 0 || target.rfind("mailto:", 0) == 0 ||
          target.rfind("data:image/", 0) == 0)
        continue;
      const std::size_t hash = target.find('#');
      const std::string path = target.substr(0, hash);
      const std::string fragment = hash == std::string::npos ? "" : target.substr(hash + 1);
      const fs::path file = path.empty() ? page : (page.parent_path() / path).lexically_normal();
      const auto found = pages.find(file);
      const bool exists = found != pages.end() || fs::is_regular_file(file);
      const bool anchored = fragment.empty() || (found != pages.end() && ids_in(found->second).count(fragment));
      if (!exists || !anchored) broken.push_back(fs::relative(page, site).string() + ": " + target);
    }
  }
  return broken;
}

const char* const kSample =
    "# Module 99 - Sample\n"
    "\n"
    "Some **bold with *italic* inside**, `code`, and a [link](https://example.org/x).\n"
    "A second line, kept as written.\n"
    "\n"
    "- first\n"
    "- second\n"
    "  1. nested one\n"
    "  2. nested two\n"
    "\n"
    "| Name | Size |\n"
    "|------|-----:|\n"
    "| a    | 1 |\n"
    "| long name | 22 |\n"
    "\n"
    "```cpp\n"
    "int x = 42;  // the answer\n"
    "```\n"
    "\n"
    "> A quote.\n"
    "\n"
    "---\n"
    "\n"
    "## Setup\n"
    "\n"
    "### Setup\n";

}  // namespace

TEST_CASE("the terminal view renders every construct and leaves no Markdown syntax", "[markdown]") {
  const Terminal plain;  // no colour: inline code keeps its backticks
  const std::string shown = render_markdown(kSample, plain);
  const std::string expected =
      "Module 99 - Sample\n"
      "==================\n"
      "\n"
      "Some bold with italic inside, `code`, and a link (https://example.org/x).\n"
      "A second line, kept as written.\n"
      "\n"
      "  - first\n"
      "  - second\n"
      "      1. nested one\n"
      "      2. nested two\n"
      "\n"
      "  Name       Size\n"
      "  ---------  ----\n"
      "  a             1\n"
      "  long name    22\n"
      "\n"
      "    int x = 42;  // the answer\n"
      "\n"
      "  | A quote.\n"
      "\n"
      "------------------------------------------------------------\n"
      "\n"
      "Setup\n"
      "-----\n"
      "\n"
      "Setup\n";
  CHECK(shown == expected);
  CHECK(render_markdown("a `` ` `` b\n", plain) == "a `` ` `` b\n");  // code holding a backtick
}

TEST_CASE("lesson headings are their text as read, from the parse tree", "[markdown]") {
  const auto headings = markdown_headings("Setext heading\n==============\n\n## *Why* `x` &amp; y ##\n\n> ## Quoted\n");
  CHECK(headings == std::vector<std::string>{"Setext heading", "Why x & y", "Quoted"});
}

TEST_CASE("syntax the parser did not take as Markdown is found, with its line, outside code", "[markdown]") {
  CHECK(unrendered_markdown(kSample).empty());
  CHECK(unrendered_markdown("Code may hold anything: `**`, `](`, `| a |`.\n\n```\n| x | y |\n**\n```\n").empty());

  const auto unclosed = unrendered_markdown("# Title\n\nfine\nthis is **not closed\n");
  REQUIRE(unclosed.size() == 1);
  CHECK(unclosed[0].rfind("line 4: an unclosed ** or __", 0) == 0);

  const auto no_table = unrendered_markdown("| a | b |\n| c | d |\n");  // no |---| rule: no table
  REQUIRE(no_table.size() == 2);
  CHECK(no_table[0].find("table row outside a table") != std::string::npos);
  CHECK(unrendered_markdown("see [the link] (https://x.org)\n").empty());  // not a link, but no syntax shows
  CHECK(unrendered_markdown("##Heading without a space\n").size() == 1);
  CHECK(unrendered_markdown("an `unclosed code span\n").size() == 1);
  CHECK(unrendered_markdown("absolute values |-0.25|, |0.5| in prose\n").empty());
}

TEST_CASE("the HTML page holds the lesson in one escaped, standalone file", "[markdown][html]") {
  const std::string html = render_markdown_html(
      std::string(kSample) + "\nText <script>alert('x')</script> & more.\n\n<div onclick=\"x()\">raw block</div>\n\n"
                             "[bad](javascript:alert(1)) ![remote](https://example.org/a.png) ![local](figures/a.svg)\n",
      {});
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("<meta charset=\"utf-8\">") != std::string::npos);
  CHECK(html.find("<title>Module 99 - Sample</title>") != std::string::npos);
  CHECK(html.find(kTitoPageGenerator) != std::string::npos);
  // Nothing to run and nothing loaded from elsewhere.
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("<div onclick") == std::string::npos);
  CHECK(html.find("&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt; &amp; more.") != std::string::npos);
  CHECK(html.find("javascript:") == std::string::npos);
  CHECK(html.find("src=\"https://") == std::string::npos);
  CHECK(html.find("<a href=\"https://example.org/a.png\">[image: remote]</a>") != std::string::npos);
  CHECK(html.find("<img src=\"figures/a.svg\" alt=\"local\">") != std::string::npos);
  CHECK(html.find("<link") == std::string::npos);

  CHECK(html.find("<strong>bold with <em>italic</em> inside</strong>") != std::string::npos);
  CHECK(html.find("<a href=\"https://example.org/x\">link</a>") != std::string::npos);
  CHECK(html.find("<th>Name</th><th class=\"align-right\">Size</th>") != std::string::npos);
  CHECK(html.find("<td>long name</td><td class=\"align-right\">22</td>") != std::string::npos);
  CHECK(html.find("<li>nested one</li>") != std::string::npos);  // a tight list: no <p>
  CHECK(html.find("<pre><code class=\"language-cpp\"><span class=\"kw\">int</span> x = <span class=\"num\">42</span>;  "
                  "<span class=\"com\">// the answer</span>") != std::string::npos);
  // Heading ids are slugs, made unique.
  CHECK(html.find("<h1 id=\"module-99---sample\">") != std::string::npos);
  CHECK(html.find("<h2 id=\"setup\">") != std::string::npos);
  CHECK(html.find("<h3 id=\"setup-1\">") != std::string::npos);
  CHECK(ids_in(html).size() == 3);
}

TEST_CASE("heading slugs follow GitHub's rule", "[markdown][html]") {
  CHECK(heading_slug("4. One batch: process_batch") == "4-one-batch-process_batch");
  CHECK(heading_slug("Your turn (section 4) - modules/01_tensor/elementwise.cpp") ==
        "your-turn-section-4---modules01_tensorelementwisecpp");
  CHECK(heading_slug("Größe ∑") == "größe-∑");
  CHECK(heading_slug("?!") == "section");
}

TEST_CASE("code is split into keywords, strings, comments and numbers, losing nothing", "[markdown][html]") {
  const std::map<std::string, std::string> samples = {
      {"cpp", "#include <x>  // why\nauto s = R\"(a \" b)\"; char c = '\\''; int n = 1'000 + 0x1F + 2.5e-3f; /* end */\n"},
      {"c++", "return true;"},
      {"sh", "cmake -S . -B build  # configure\necho \"a $b\" 'c' 42\n"},
      {"console", "$ tito module test 01\n  # not a comment: output\n$ echo 'x'\n"},
      {"json", "{\"a\": [1, -2.5e3, true, null], \"b\": \"x\\\"y\"}"},
      {"python", "def f(x):  # c\n    return \"\"\"doc\n\"\"\" + 'a' + 3.0 if x is None else 1\n"},
      {"text", "anything <at> all"},
  };
  for (const auto& [language, code] : samples) {
    INFO(language);
    std::string joined;
    for (const auto& token : highlight_code(code, language)) joined += token.text;
    CHECK(joined == code);
  }
  auto kinds = [](const std::string& code, const std::string& language) {
    std::map<std::string, TokenKind> found;
    for (const auto& token : highlight_code(code, language)) found[token.text] = token.kind;
    return found;
  };
  const auto cpp = kinds(samples.at("cpp"), "cpp");
  CHECK(cpp.at("#include <x>  ") == TokenKind::Directive);
  CHECK(cpp.at("// why") == TokenKind::Comment);
  CHECK(cpp.at("auto") == TokenKind::Keyword);
  CHECK(cpp.at("R\"(a \" b)\"") == TokenKind::String);
  CHECK(cpp.at("'\\''") == TokenKind::String);
  CHECK(cpp.at("1'000") == TokenKind::Number);
  CHECK(cpp.at("2.5e-3f") == TokenKind::Number);
  CHECK(cpp.at("/* end */") == TokenKind::Comment);
  const auto console = kinds(samples.at("console"), "console");
  CHECK(console.at("$ ") == TokenKind::Directive);
  for (const auto& token : highlight_code(samples.at("console"), "console"))
    CHECK(token.kind != TokenKind::Comment);  // the output line's # is output, not a comment
  const auto json = kinds(samples.at("json"), "json");
  CHECK(json.at("-2.5e3") == TokenKind::Number);
  CHECK(json.at("null") == TokenKind::Keyword);
  CHECK(json.at("\"x\\\"y\"") == TokenKind::String);
  const auto python = kinds(samples.at("python"), "python");
  CHECK(python.at("\"\"\"doc\n\"\"\"") == TokenKind::String);
  CHECK(python.at("None") == TokenKind::Keyword);
  CHECK(highlight_code("int x;", "").size() == 1);  // no language: one plain token
}

TEST_CASE("a lesson page links to other lessons' pages and carries its own figures", "[lesson][html]") {
  tito_test::ScratchDir dir;
  fs::copy(TITO_TESTS_DATA_DIR "/fake_source", dir.root, fs::copy_options::recursive);
  const fs::path alpha = dir.root / "curriculum" / "01_alpha";
  put(alpha / "lesson.md",
      "# Module 01 - Alpha\n\n## 1. Start\n\nSee [beta's setup](../02_beta/lesson.md#setup), [below](#1-start), "
      "[this page](lesson.md#1-start),\n[a note](notes.txt) and [gamma](../03_gamma/lesson.md).\n\n"
      "![the figure](figures/shape.svg) ![gone](figures/missing.png)\n");
  put(alpha / "figures" / "shape.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>");
  put(dir.root / "curriculum" / "02_beta" / "lesson.md", "# Module 02 - Beta\n\n## Setup\n\nBack to [alpha](../01_alpha/lesson.md).\n");
  const auto curriculum = Curriculum::load(dir.root);

  const LessonPage page = render_lesson_page(curriculum, *curriculum.find("01"), true);
  CHECK(page.html.find("<title>01 Alpha</title>") != std::string::npos);
  CHECK(page.html.find("href=\"../02_beta/lesson.html#setup\"") != std::string::npos);
  CHECK(page.html.find("href=\"#1-start\">below") != std::string::npos);
  CHECK(page.html.find("href=\"#1-start\">this page") != std::string::npos);
  CHECK(page.html.find("src=\"data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=\"") !=
        std::string::npos);
  CHECK(page.html.find("<a href=\"../index.html\">All lessons</a>") != std::string::npos);
  CHECK(page.html.find("02 Beta \u2192") != std::string::npos);
  // A link to what is no lesson shows as its text, and is reported.
  CHECK(page.html.find("notes.txt") == std::string::npos);
  REQUIRE(page.problems.size() == 3);
  CHECK(page.problems[0].rfind("01_alpha/lesson.md: link to notes.txt", 0) == 0);
  CHECK(page.problems[1].find("link to ../03_gamma/lesson.md") != std::string::npos);  // gamma has no lesson yet
  CHECK(page.problems[2].find("image figures/missing.png") != std::string::npos);

  const fs::path site = dir.root / "site";
  const LessonSite built = build_lesson_site(curriculum, site);
  CHECK(built.lessons == 2);
  CHECK(fs::is_regular_file(site / "01_alpha" / "lesson.html"));
  const std::string index = read_file(site / "index.html");
  CHECK(index.find("<a href=\"02_beta/lesson.html\">Beta</a>") != std::string::npos);
  CHECK(index.find("Gamma <span class=\"not-yet\">(lesson not written yet)</span>") != std::string::npos);
  CHECK(index.find("<h2 id=\"architecture\">Architecture</h2>") != std::string::npos);
  CHECK(broken_links(site).empty());

  const fs::path other = dir.root / "other";
  put(other / "index.html", "<p>someone else's page</p>");
  CHECK_THROWS_AS(build_lesson_site(curriculum, other), UserError);
  CHECK_FALSE(fs::exists(other / "01_alpha"));  // refused before writing anything
}

TEST_CASE("writing a page replaces only a page tito wrote", "[lesson][html]") {
  tito_test::ScratchDir dir;
  const fs::path page = dir.root / "lessons" / "01_alpha" / "lesson.html";
  write_page(page, standalone_html_page("one", "<p>1</p>"), "fix");
  write_page(page, standalone_html_page("two", "<p>2</p>"), "fix");
  CHECK(read_file(page).find("<title>two</title>") != std::string::npos);

  const fs::path mine = dir.root / "notes.html";
  put(mine, "<p>the learner's own notes</p>");
  CHECK_THROWS_AS(write_page(mine, standalone_html_page("x", ""), "fix"), UserError);
  CHECK(read_file(mine) == "<p>the learner's own notes</p>");
  put(dir.root / "blocked", "a file where a folder should be");
  CHECK_THROWS_AS(write_page(dir.root / "blocked" / "lesson.html", "", "fix"), UserError);

  CHECK(file_url("/tmp/a b/lesson.html") == "file:///tmp/a%20b/lesson.html");
  CHECK(default_lessons_dir("", dir.root) == dir.root / "tinytorch-lessons");  // no workspace here
}

TEST_CASE("every lesson of the repository reads cleanly in the terminal and links soundly in HTML", "[lesson][curriculum]") {
  const auto curriculum = Curriculum::load(TITO_SOURCE_DIR);
  int lessons = 0;
  for (const auto& module : curriculum.modules()) {
    if (!module.available()) continue;
    ++lessons;
    INFO(module.lesson.string());
    const std::string markdown = read_file(module.lesson);
    const auto unrendered = unrendered_markdown(markdown);
    for (const auto& problem : unrendered) UNSCOPED_INFO(module.folder() << "/lesson.md " << problem);
    CHECK(unrendered.empty());
    const Terminal plain;
    const std::string shown = render_markdown(markdown, plain);
    CHECK(count(shown, "\n") > 20);
    CHECK(shown.find("```") == std::string::npos);
  }
  CHECK(lessons >= 20);

  tito_test::ScratchDir dir;
  const LessonSite site = build_lesson_site(curriculum, dir.root / "lessons");
  for (const auto& problem : site.problems) UNSCOPED_INFO(problem);
  CHECK(site.problems.empty());
  CHECK(site.lessons == lessons);
  const auto broken = broken_links(dir.root / "lessons");
  for (const auto& link : broken) UNSCOPED_INFO("broken link: " << link);
  CHECK(broken.empty());
}
