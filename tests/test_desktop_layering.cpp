// The rooms of the desktop app (app/desktop/<room>/) and the directions in which they may include
// each other, checked on the sources as core's layering is (test_model): a file of a room includes
// from its own room, from the rooms its room declares below, and from the layers under the app
// (core, io, render); never from the window's root (app/desktop/*.hpp: main_window,
// file_actions), never main_window.hpp from anywhere but the root, never an engine's header
// (core/planar, core/nonholonomic, core/se3, core/bodies, core/contact: the window sees systems
// through core/model).
// docs/architecture.md lists the same rooms with their one idea each.

#include <QtTest>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <string>

namespace fs = std::filesystem;

namespace {

// Each room and the rooms it may include (below it). A new folder must be declared here.
const std::map<std::string, std::set<std::string>>& allowedRooms() {
  static const std::map<std::string, std::set<std::string>> rooms = {
      {"widgets", {}},
      {"run", {}},
      {"help", {}},
      {"view", {"run"}},
      {"bodies", {"run", "widgets"}},
      {"scenario", {"bodies", "run", "widgets"}},
      {"plots", {"run", "widgets"}},
      {"export", {"plots", "run", "widgets"}},
      {"replay", {"plots", "run", "view", "widgets"}},
      {"study", {"export", "plots", "run", "scenario", "widgets"}},
  };
  return rooms;
}

const fs::path kRoot = fs::path(RICOCHET_SOURCE_DIR);
const fs::path kDesktop = kRoot / "app" / "desktop";

bool isSource(const fs::path& p) {
  const auto ext = p.extension();
  return ext == ".hpp" || ext == ".cpp" || ext == ".h";
}

// The quoted includes of a file, with their line.
std::vector<std::string> quotedIncludes(const fs::path& file) {
  // (A plain string literal: moc mis-parses raw strings that contain a hash-include.)
  static const std::regex include("^\\s*#\\s*include\\s*\"([^\"]+)\"");
  std::vector<std::string> out;
  std::ifstream in(file);
  std::string line;
  std::smatch m;
  while (std::getline(in, line)) {
    if (std::regex_search(line, m, include)) out.push_back(m[1]);
  }
  return out;
}

// The room of a path under app/desktop ("" for the root).
std::string roomOf(const fs::path& relative) {
  auto it = relative.begin();
  if (std::next(it) == relative.end()) return {};
  return it->string();
}

}  // namespace

class TestDesktopLayering : public QObject {
  Q_OBJECT
 private slots:
  void declaredRoomsFormNoCycle() {
    // Walk down from every room: no room may reach itself.
    const auto& rooms = allowedRooms();
    std::function<bool(const std::string&, const std::string&, std::set<std::string>&)> reaches =
        [&](const std::string& from, const std::string& target, std::set<std::string>& seen) {
          for (const std::string& below : rooms.at(from)) {
            if (below == target) return true;
            if (seen.insert(below).second && reaches(below, target, seen)) return true;
          }
          return false;
        };
    for (const auto& [room, below] : rooms) {
      for (const std::string& b : below) {
        QVERIFY2(rooms.count(b),
                 ("room '" + room + "' declares the unknown room '" + b + "'").c_str());
      }
    }
    for (const auto& [room, below] : rooms) {
      std::set<std::string> seen;
      QVERIFY2(!reaches(room, room, seen), ("room '" + room + "' reaches itself").c_str());
    }
  }

  void everyFolderIsADeclaredRoom() {
    int folders = 0;
    for (const auto& entry : fs::directory_iterator(kDesktop)) {
      if (!entry.is_directory()) continue;
      ++folders;
      const std::string name = entry.path().filename().string();
      QVERIFY2(
          allowedRooms().count(name),
          ("app/desktop/" + name + "/ is not a declared room (tests/test_desktop_layering.cpp)")
              .c_str());
    }
    QCOMPARE(folders, int(allowedRooms().size()));
  }

  void roomsIncludeOnlyDownwards() {
    int files = 0, includes = 0;
    for (const auto& entry : fs::recursive_directory_iterator(kDesktop)) {
      if (!entry.is_regular_file() || !isSource(entry.path())) continue;
      const fs::path rel = fs::relative(entry.path(), kDesktop);
      const std::string room = roomOf(rel);
      const std::string where = "app/desktop/" + rel.generic_string();
      ++files;
      for (const std::string& inc : quotedIncludes(entry.path())) {
        ++includes;
        // Every include of the project is written from the repository root.
        QVERIFY2(inc.find('/') != std::string::npos,
                 (where + ": include \"" + inc + "\" without its folder").c_str());
        QVERIFY2(!std::regex_search(inc, std::regex("^core/(planar|nonholonomic|se3|bodies|contact)/")),
                 (where + ": includes the engine header " + inc +
                  " (the window sees systems through core/model)")
                     .c_str());
        if (inc.rfind("app/", 0) != 0) continue;
        QVERIFY2(inc.rfind("app/desktop/", 0) == 0,
                 (where + ": includes " + inc + " (another application)").c_str());
        const fs::path target = fs::path(inc).lexically_relative("app/desktop");
        const std::string targetRoom = roomOf(target);
        if (room.empty()) continue;  // the root assembles every room
        QVERIFY2(
            !targetRoom.empty(),
            (where + ": includes " + inc + ", which runs back up to the window's root").c_str());
        if (targetRoom == room) continue;
        QVERIFY2(allowedRooms().at(room).count(targetRoom),
                 (where + ": room '" + room + "' includes " + inc + " from room '" + targetRoom +
                  "', which it does not declare below it")
                     .c_str());
      }
    }
    QVERIFY(files >= 90);
    QVERIFY(includes >= 200);
  }

  void onlyTheRootIncludesTheMainWindow() {
    // Anywhere in the program's sources (tests and bench/ drive the window and may).
    int checked = 0;
    for (const char* top : {"app", "core", "io", "render", "mesh", "python"}) {
      if (!fs::exists(kRoot / top)) continue;
      for (const auto& entry : fs::recursive_directory_iterator(kRoot / top)) {
        if (!entry.is_regular_file() || !isSource(entry.path())) continue;
        const fs::path rel = fs::relative(entry.path(), kRoot);
        const bool root = rel.parent_path() == fs::path("app/desktop");
        const std::string stem = entry.path().stem().string();
        const bool allowed = root && (stem == "main_window" || stem == "main");
        ++checked;
        for (const std::string& inc : quotedIncludes(entry.path())) {
          QVERIFY2(allowed || inc != "app/desktop/main_window.hpp",
                   (rel.generic_string() + " includes main_window.hpp: talk to RunSource / "
                                           "RunSession (app/desktop/run/) instead")
                       .c_str());
        }
      }
    }
    QVERIFY(checked >= 100);
  }

  void cmakeListsEverySourceWithItsRoom() {
    // The library's source list names every file of every room (nothing compiled by accident or
    // forgotten), and the desktop library links no engine of its own.
    std::ifstream cmake(kDesktop / "CMakeLists.txt");
    QVERIFY(cmake.good());
    std::string text, line;
    while (std::getline(cmake, line)) text += line.substr(0, line.find('#')) + "\n";
    int listed = 0;
    for (const auto& entry : fs::recursive_directory_iterator(kDesktop)) {
      if (!entry.is_regular_file() || !isSource(entry.path())) continue;
      const std::string rel = fs::relative(entry.path(), kDesktop).generic_string();
      if (rel == "main.cpp") continue;  // the executable's
      const std::regex named("(^|\\s)" + std::regex_replace(rel, std::regex("\\."), "\\.") +
                             "(\\s|\\))");
      QVERIFY2(std::regex_search(text, named),
               ("app/desktop/CMakeLists.txt does not list " + rel).c_str());
      ++listed;
    }
    QVERIFY(listed >= 90);
    QVERIFY2(!std::regex_search(text, std::regex("ricochet_(planar|nonholonomic|se3)\\b")),
             "app/desktop links an engine target");
  }
};

QTEST_APPLESS_MAIN(TestDesktopLayering)
#include "test_desktop_layering.moc"
