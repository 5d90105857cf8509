// core/io/json: the strict reader (valid, invalid and hostile documents, with line/column in the
// messages) and the writer (escaping, shortest round-trip numbers).

#include "core/io/json.hpp"

#include <QtTest>

#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

using namespace ricochet;

namespace {

json::ParseResult parseText(const std::string& s) { return json::parse(s); }

/// Fails the test (with the message) unless `text` is rejected with a message containing `needle`.
void expectRejected(const std::string& text, const char* needle) {
  const json::ParseResult r = parseText(text);
  QVERIFY2(!r.ok(), ("accepted: " + text.substr(0, 60)).c_str());
  QVERIFY2(r.error.find(needle) != std::string::npos, (r.error + "  [wanted: " + needle + "]").c_str());
  QVERIFY2(r.error.rfind("line ", 0) == 0, r.error.c_str());
  QVERIFY(r.line >= 1 && r.column >= 1);
}

}  // namespace

class TestIoJson : public QObject {
  Q_OBJECT
 private slots:
  void parsesValidDocuments() {
    const json::ParseResult r = parseText(
        "\xEF\xBB\xBF{ \"a\": [1, -0.5, 2e3, -1E-2, 0, -0], \"b\": {\"c\": true, \"d\": false, \"e\": null},\n"
        "  \"s\": \"x\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD834\\uDD1E\xC3\xA9\" , \"empty\": {}, \"none\": [] }");
    QVERIFY2(r.ok(), r.error.c_str());
    const json::Value& v = *r.value;
    QVERIFY(v.isObject());
    QCOMPARE(v.asObject().size(), std::size_t(5));
    QCOMPARE(v.asObject()[0].first, std::string("a"));  // document order kept
    const json::Array& a = v.find("a")->asArray();
    QCOMPARE(a.size(), std::size_t(6));
    QCOMPARE(a[1].asNumber(), -0.5);
    QCOMPARE(a[2].asNumber(), 2000.0);
    QCOMPARE(a[3].asNumber(), -0.01);
    QVERIFY(std::signbit(a[5].asNumber()));
    QVERIFY(v.find("b")->find("c")->asBool());
    QVERIFY(!v.find("b")->find("d")->asBool());
    QVERIFY(v.find("b")->find("e")->isNull());
    // \u00e9 and the raw UTF-8 e-acute give the same bytes; the pair D834/DD1E is U+1D11E.
    QCOMPARE(v.find("s")->asString(), std::string("x\"\\/\b\f\n\r\t\xC3\xA9\xF0\x9D\x84\x9E\xC3\xA9"));
    QVERIFY(v.find("empty")->asObject().empty());
    QVERIFY(v.find("none")->asArray().empty());
    QVERIFY(v.find("missing") == nullptr);
    // Positions of values, 1-based.
    QCOMPARE(v.find("s")->line(), 2);
    QCOMPARE(v.find("s")->column(), 8);
    // Scalars are documents too.
    QCOMPARE(parseText(" 42 ").value->asNumber(), 42.0);
    QVERIFY(parseText("null").value->isNull());
  }

  void numbersAreExactDoubles() {
    // from_chars is correctly rounded: the nearest double to the decimal text.
    QCOMPARE(parseText("0.4517539515").value->asNumber(), 0.4517539515);
    QCOMPARE(parseText("1.7976931348623157e308").value->asNumber(), std::numeric_limits<double>::max());
    QCOMPARE(parseText("4.9406564584124654e-324").value->asNumber(),
             std::numeric_limits<double>::denorm_min());
    QCOMPARE(parseText("123456789012345678901234567890").value->asNumber(), 1.2345678901234568e29);
  }

  void rejectsInvalidSyntax() {
    expectRejected("", "unexpected end of input");
    expectRejected("   ", "unexpected end of input");
    expectRejected("{", "unexpected end of input");
    expectRejected("[1, 2", "unexpected end of input");
    expectRejected("{\"a\": 1", "unexpected end of input");
    expectRejected("{\"a\" 1}", "expected ':'");
    expectRejected("{a: 1}", "expected a quoted key");
    expectRejected("{'a': 1}", "expected a quoted key");
    expectRejected("[1,]", "trailing comma");
    expectRejected("{\"a\": 1,}", "trailing comma");
    expectRejected("[1 2]", "expected ',' or ']'");
    expectRejected("{} {}", "after the JSON value");
    expectRejected("tru", "invalid token");
    expectRejected("True", "expected a value");
    expectRejected("// comment\n1", "expected a value");
    expectRejected("\"abc", "unterminated string");
    expectRejected("\"a\tb\"", "control character 0x09");
    expectRejected("\"a\\x\"", "invalid escape");
    expectRejected("\"\\u12G4\"", "invalid hex digit");
    expectRejected("\"\\u12\"", "truncated \\u escape");
    expectRejected("\"\\u12x4\"", "invalid hex digit 'x'");
  }

  void rejectsNonJsonNumbers() {
    expectRejected("NaN", "numbers must be finite");
    expectRejected("[Infinity]", "numbers must be finite");
    expectRejected("-Infinity", "numbers must be finite");
    expectRejected("nan", "numbers must be finite");
    expectRejected("01", "leading zeros");
    expectRejected("-01.5", "leading zeros");
    expectRejected("+1", "expected a value");
    expectRejected(".5", "expected a value");
    expectRejected("1.", "expected a digit after '.'");
    expectRejected("1.e5", "expected a digit after '.'");
    expectRejected("1e", "expected a digit in the exponent");
    expectRejected("1e+", "expected a digit in the exponent");
    expectRejected("-", "expected a digit after '-'");
    expectRejected("0x10", "after the JSON value");
    // Overflow to infinity and underflow to zero are refused, not silently rounded.
    expectRejected("1e999", "out of the range of a double");
    expectRejected("[-1e999]", "out of the range of a double");
    expectRejected("1.7976931348623159e308", "out of the range of a double");
    expectRejected("1e-400", "out of the range of a double");
  }

  void rejectsInvalidUtf8() {
    expectRejected("\"\x80\"", "invalid UTF-8 byte 0x80");           // lone continuation byte
    expectRejected("\"\xC3\"", "invalid UTF-8");                     // truncated sequence
    expectRejected("\"\xC0\xAF\"", "invalid UTF-8 byte 0xC0");       // overlong '/'
    expectRejected("\"\xE0\x80\xAF\"", "invalid UTF-8 byte 0xE0");   // overlong, 3 bytes
    expectRejected("\"\xED\xA0\x80\"", "invalid UTF-8 byte 0xED");   // UTF-16 surrogate D800
    expectRejected("\"\xF4\x90\x80\x80\"", "invalid UTF-8 byte 0xF4");  // above U+10FFFF
    expectRejected("\"\xFF\"", "invalid UTF-8 byte 0xFF");
    expectRejected("\"\\uDC00\"", "lone low surrogate");
    expectRejected("\"\\uD800\"", "without a low surrogate");
    expectRejected("\"\\uD800\\u0041\"", "without a low surrogate");
    expectRejected("{\"k\xFE\": 1}", "invalid UTF-8");
    expectRejected("\xC3\xA9", "expected a value");  // non-ASCII outside strings
  }

  void rejectsDuplicateKeysWithPosition() {
    const json::ParseResult r = parseText("{\n  \"m\": 1,\n  \"m\": 2\n}");
    QVERIFY(!r.ok());
    QCOMPARE(QString::fromStdString(r.error), QStringLiteral("line 3, column 3: duplicate key \"m\""));
    QCOMPARE(r.line, 3);
    QCOMPARE(r.column, 3);
    // Nested objects are checked too, and equal keys in different objects are fine.
    expectRejected("{\"a\": {\"x\": 1, \"x\": 1}}", "duplicate key \"x\"");
    QVERIFY(parseText("{\"a\": {\"x\": 1}, \"b\": {\"x\": 1}}").ok());
  }

  void hostileNestingFailsCleanly() {
    // 100000 '[' would overflow the stack of a naive recursive parser.
    const json::ParseResult deep = parseText(std::string(100000, '['));
    QVERIFY(!deep.ok());
    QVERIFY2(deep.error.find("nesting deeper than 64 levels") != std::string::npos, deep.error.c_str());
    QCOMPARE(deep.column, json::kMaxDepth + 1);
    const json::ParseResult objects = parseText(std::string(100000, '{'));
    QVERIFY(!objects.ok());
    std::string mixed;
    for (int i = 0; i < 50000; ++i) mixed += "{\"a\":[";
    QVERIFY(!parseText(mixed).ok());
    // Exactly at the limit is still accepted.
    const std::string atLimit = std::string(json::kMaxDepth, '[') + std::string(json::kMaxDepth, ']');
    QVERIFY2(parseText(atLimit).ok(), parseText(atLimit).error.c_str());
    const std::string overLimit = "[" + atLimit + "]";
    QVERIFY(!parseText(overLimit).ok());
  }

  void truncatedDocumentsFail() {
    const std::string full =
        "{\"format\": \"ricochet-scenario\", \"version\": 1, \"parameters\": {\"m\": 1.5e-3}, \"s\": \"\\u00e9\"}";
    QVERIFY(parseText(full).ok());
    for (std::size_t n = 0; n < full.size(); ++n) {
      const json::ParseResult r = parseText(full.substr(0, n));
      QVERIFY2(!r.ok(), ("prefix accepted: " + full.substr(0, n)).c_str());
      QVERIFY(!r.error.empty());
    }
  }

  void readsFilesWithASizeLimit() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const std::filesystem::path path = dir.filePath("doc.json").toStdString();
    {
      std::ofstream out(path, std::ios::binary);
      out << "{\n  \"a\": [1, 2,\n}";
    }
    const json::ParseResult bad = json::parseFile(path);
    QVERIFY(!bad.ok());
    QCOMPARE(QString::fromStdString(bad.error),
             QString::fromStdString(path.string()) + QStringLiteral(": line 3, column 1: unexpected '}', expected a value (at \"a[2]\")"));
    {
      std::ofstream out(path, std::ios::binary);
      out << "[" << std::string(2000, ' ') << "]";
    }
    QVERIFY(json::parseFile(path).ok());
    const json::ParseResult big = json::parseFile(path, 1000);
    QVERIFY(!big.ok());
    QVERIFY2(big.error.find("larger than 1000 bytes") != std::string::npos, big.error.c_str());
    const json::ParseResult missing = json::parseFile(path.parent_path() / "nope.json");
    QVERIFY(!missing.ok());
    QVERIFY2(missing.error.find("no such file") != std::string::npos, missing.error.c_str());
    const json::ParseResult directory = json::parseFile(path.parent_path());
    QVERIFY(!directory.ok());
    QVERIFY2(directory.error.find("is a directory") != std::string::npos, directory.error.c_str());
  }

  void writerEscapesAndRoundTrips() {
    json::Value o = json::Value::object();
    o.add("text", json::Value::string(std::string("q\"b\\s/\n\t\x01\x7F\xC3\xA9")));
    o.add("bad", json::Value::string("\xFF"));
    o.add("nan", json::Value::number(std::nan("")));
    o.add("inf", json::Value::number(std::numeric_limits<double>::infinity()));
    json::Value nums = json::Value::array();
    const double values[] = {0.1, 1.0 / 3.0, -2.0, 1e-15, 0.4517539515, 38.188021, 5e-324,
                             std::numeric_limits<double>::max(), -0.0, 9007199254740993.0};
    for (double x : values) nums.push(json::Value::number(x));
    o.add("numbers", std::move(nums));
    o.add("nested", json::Value::array({json::Value::object(), json::Value::array()}));
    for (int indent : {-1, 0, 2, 4}) {
      const std::string text = json::write(o, indent);
      const json::ParseResult back = parseText(text);
      QVERIFY2(back.ok(), (back.error + "\n" + text).c_str());
      QCOMPARE(back.value->find("text")->asString(), o.find("text")->asString());
      QCOMPARE(back.value->find("bad")->asString(), std::string("\xEF\xBF\xBD"));  // U+FFFD
      QVERIFY(back.value->find("nan")->isNull());  // JSON has no NaN: written as null
      QVERIFY(back.value->find("inf")->isNull());
      const json::Array& a = back.value->find("numbers")->asArray();
      QCOMPARE(a.size(), std::size(values));
      for (std::size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(std::bit_cast<std::uint64_t>(a[i].asNumber()), std::bit_cast<std::uint64_t>(values[i]));
      }
      if (indent < 0) QVERIFY(text.find('\n') == std::string::npos);
    }
    // Shortest round-trip numbers and exact escapes, on one line.
    QCOMPARE(QString::fromStdString(json::write(json::Value::array({json::Value::number(0.1),
                                                                    json::Value::number(1e-15),
                                                                    json::Value::string("a\"\x01")}),
                                                -1)),
             QStringLiteral("[0.1,1e-15,\"a\\\"\\u0001\"]"));
    QCOMPARE(QString::fromStdString(json::quote("tab\there")), QStringLiteral("\"tab\\there\""));
  }
};

QTEST_APPLESS_MAIN(TestIoJson)
#include "test_io_json.moc"
