#include "core/lesson_pages.h"

#include <cctype>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"
#include "core/lesson_translation.h"
#include "core/markdown.h"
#include "core/report_format.h"
#include "core/workspace.h"

namespace tito {
namespace {

namespace fs = std::filesystem;

std::string base64(const std::string& bytes) {
  static const char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t left = bytes.size() - i;
    const unsigned chunk = static_cast<unsigned char>(bytes[i]) << 16 |
                           (left > 1 ? static_cast<unsigned char>(bytes[i + 1]) << 8 : 0) |
                           (left > 2 ? static_cast<unsigned char>(bytes[i + 2]) : 0);
    out += kAlphabet[chunk >> 18 & 63];
    out += kAlphabet[chunk >> 12 & 63];
    out += left > 1 ? kAlphabet[chunk >> 6 & 63] : '=';
    out += left > 2 ? kAlphabet[chunk & 63] : '=';
  }
  return out;
}

const std::map<std::string, std::string>& image_types() {
  static const std::map<std::string, std::string> types = {{".svg", "image/svg+xml"}, {".png", "image/png"},
                                                           {".jpg", "image/jpeg"},    {".jpeg", "image/jpeg"},
                                                           {".gif", "image/gif"},     {".webp", "image/webp"}};
  return types;
}

// A url with a scheme (https:, mailto:) or from the server's root leaves the lesson folder: kept as written.
bool leaves_the_lessons(const std::string& url) {
  const std::size_t colon = url.find(':');
  return url.rfind("/", 0) == 0 || (colon != std::string::npos && url.find_first_of("/?#") > colon);
}

// Resolves what a lesson's links and images point to, noting each that leads nowhere.
class LessonLinks {
 public:
  LessonLinks(const Curriculum& curriculum, const ModuleInfo& module, std::vector<std::string>& problems)
      : curriculum_(curriculum), module_(module), problems_(problems) {}

  std::string link(const std::string& url) {
    if (url.empty() || url[0] == '#' || leaves_the_lessons(url)) return url;
    const std::size_t hash = url.find('#');
    const std::string fragment = hash == std::string::npos ? "" : url.substr(hash);
    const fs::path target = resolve(url.substr(0, hash));
    if (target == module_.lesson.lexically_normal()) return fragment.empty() ? "#" : fragment;
    for (const auto& other : curriculum_.modules()) {
      if (target != other.lesson.lexically_normal()) continue;
      if (!other.available()) break;
      return "../" + lesson_page_path(other).generic_string() + fragment;
    }
    problems_.push_back(fmt::format("{}: link to {}: no lesson is there, and the lesson pages hold only lessons "
                                    "(link to a lesson, ../NN_slug/lesson.md#section, or write the path as code)",
                                    where(), url));
    return "";  // shown as its text
  }

  std::string image(const std::string& url) {
    if (url.empty() || leaves_the_lessons(url)) return url;
    const fs::path file = resolve(url);
    const auto type = image_types().find(file.extension().string());
    if (type == image_types().end() || !fs::is_regular_file(file)) {
      problems_.push_back(fmt::format("{}: image {} is not a .svg, .png, .jpg, .gif or .webp file beside the lesson", where(), url));
      return "";
    }
    return "data:" + type->second + ";base64," + base64(read_file(file));
  }

 private:
  fs::path resolve(const std::string& relative) const { return (module_.lesson.parent_path() / relative).lexically_normal(); }
  std::string where() const { return (module_.lesson.parent_path().filename() / module_.lesson.filename()).generic_string(); }

  const Curriculum& curriculum_;
  const ModuleInfo& module_;
  std::vector<std::string>& problems_;
};

// "All lessons", the lesson before and the one after, among those written.
std::vector<std::pair<std::string, std::string>> site_navigation(const Curriculum& curriculum, const ModuleInfo& module) {
  std::vector<std::pair<std::string, std::string>> links = {{"All lessons", "../index.html"}};
  const ModuleInfo* previous = nullptr;
  const ModuleInfo* next = nullptr;
  bool passed = false;
  for (const auto& other : curriculum.modules()) {
    if (other.number == module.number) {
      passed = true;
    } else if (other.available()) {
      if (!passed) previous = &other;
      else if (!next) next = &other;
    }
  }
  if (previous) links.push_back({"\u2190 " + previous->label(), "../" + lesson_page_path(*previous).generic_string()});
  if (next) links.push_back({next->label() + " \u2192", "../" + lesson_page_path(*next).generic_string()});
  return links;
}

}  // namespace

fs::path lesson_page_path(const ModuleInfo& module) { return fs::path(module.folder()) / "lesson.html"; }

LessonPage render_lesson_page(const Curriculum& curriculum, const ModuleInfo& module, bool in_site,
                              const std::string& language) {
  LessonPage page;
  LessonLinks links(curriculum, module, page.problems);
  HtmlPageOptions options;
  options.title = module.label();
  if (in_site) options.navigation = site_navigation(curriculum, module);
  options.link_target = [&links](const std::string& url) { return links.link(url); };
  options.image_source = [&links](const std::string& url) { return links.image(url); };
  options.language = language;
  page.html = render_markdown_html(read_file(module.lesson), options);
  return page;
}

std::string lesson_index_html(const Curriculum& curriculum) {
  std::string body = "<main>\n<h1 id=\"tinytorch-c-lessons\">TinyTorch C++ lessons</h1>\n"
                     "<p>Every module of the course, by tier. The command line shows the same lessons: "
                     "<code>tito module view NN</code>.</p>\n";
  std::string tier;
  for (const auto& module : curriculum.modules()) {
    if (module.tier != tier) {
      body += tier.empty() ? "" : "</ul>\n";
      tier = module.tier;
      body += "<h2 id=\"" + html_escape(heading_slug(tier)) + "\">" + html_escape(tier) + "</h2>\n<ul class=\"lessons\">\n";
    }
    body += "<li>" + html_escape(module.number) + " ";
    if (module.available()) {
      body += "<a href=\"" + html_escape(lesson_page_path(module).generic_string()) + "\">" + html_escape(module.title) + "</a>";
    } else {
      body += html_escape(module.title) + " <span class=\"not-yet\">(lesson not written yet)</span>";
    }
    if (!module.subtitle.empty()) body += " <span class=\"subtitle\">- " + html_escape(module.subtitle) + "</span>";
    body += "</li>\n";
  }
  body += tier.empty() ? "</main>\n" : "</ul>\n</main>\n";
  return standalone_html_page("TinyTorch C++ lessons", body);
}

namespace {

// tito's pages carry kTitoPageGenerator in their first lines.
void refuse_unless_ours(const fs::path& file, const std::string& fix) {
  std::error_code error;
  if (!fs::exists(file, error)) return;
  std::string head(4096, '\0');
  std::ifstream in(file, std::ios::binary);
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (!fs::is_regular_file(file) || head.find(kTitoPageGenerator) == std::string::npos)
    throw UserError(fmt::format("{} already exists and tito did not write it, so it is left as it is", file.string()), fix);
}

}  // namespace

void write_page(const fs::path& file, const std::string& html, const std::string& fix) {
  refuse_unless_ours(file, fix);
  std::error_code error;
  fs::create_directories(file.parent_path(), error);
  if (error || !fs::is_directory(file.parent_path()))
    throw UserError(fmt::format("cannot make the folder {}: {}", file.parent_path().string(),
                                error ? error.message() : "a file has that name"),
                    fix);
  try {
    write_file_atomically(file, html);
  } catch (const std::exception& failure) {  // a read-only folder, a full disk
    throw UserError(fmt::format("cannot write {}: {}", file.string(), failure.what()), fix);
  }
}

LessonSite build_lesson_site(const Curriculum& curriculum, const fs::path& dir, const std::string& language) {
  const std::string fix = fmt::format("tito lessons build --out {}",
                                      fs::exists(dir) ? unique_path(dir).string() : "DIR   (a folder you can write to)");
  LessonSite site{dir / "index.html", 0, 0, {}};
  // Every file first, so that a refusal leaves the folder as it was.
  refuse_unless_ours(site.index, fix);
  for (const auto& module : curriculum.modules())
    if (module.available()) refuse_unless_ours(dir / lesson_page_path(module), fix);
  for (const auto& module : curriculum.modules()) {
    if (!module.available()) continue;
    const LessonChoice choice = choose_lesson(module, language);
    ModuleInfo shown = module;
    shown.lesson = choice.file;
    LessonPage page = render_lesson_page(curriculum, shown, true, choice.language);
    if (!choice.fell_back && choice.language != "en") ++site.translated;
    write_page(dir / lesson_page_path(module), page.html, fix);
    site.problems.insert(site.problems.end(), page.problems.begin(), page.problems.end());
    ++site.lessons;
  }
  // Last, so that a build stopped half-way leaves no index pointing at pages that are not there.
  write_page(site.index, lesson_index_html(curriculum), fix);
  return site;
}

fs::path default_lessons_dir(const std::string& explicit_workspace, const fs::path& current_dir) {
  try {
    return Workspace::locate(explicit_workspace, current_dir).root() / "lessons";
  } catch (const UserError&) {
    if (!explicit_workspace.empty()) throw;  // a wrong --workspace is still an error
  }
  return current_dir / "tinytorch-lessons";
}

std::string file_url(const fs::path& path) {
  std::string url = "file://";
  for (const char c : fs::absolute(path).lexically_normal().generic_string()) {
    const auto byte = static_cast<unsigned char>(c);
    if (std::isalnum(byte) || std::string("/-._~").find(c) != std::string::npos) url += c;
    else url += fmt::format("%{:02X}", byte);
  }
  return url;
}

}  // namespace tito
