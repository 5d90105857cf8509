// core/io/json: the strict reader (valid, invalid and hostile documents, with line/column in the
// messages) and the writer (escaping, shortest round-trip numbers, integers).

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

  void integerLiteralsKeepTheirExactValue() {
    // 2^53 + 1 has no double; as an integer literal it is kept exactly, and written back so.
    const json::ParseResult r = parseText("[9007199254740993, -9223372036854775808, 1, 0, 1.0, 1e2, -0, "
                                          "9223372036854775808]");
    QVERIFY2(r.ok(), r.error.c_str());
    const json::Array& a = r.value->asArray();
    QVERIFY(a[0].isInteger());
    QCOMPARE(a[0].asInteger(), std::int64_t(9007199254740993));
    QCOMPARE(a[0].asNumber(), 9007199254740992.0);  // the nearest double
    QVERIFY(a[1].isInteger());
    QCOMPARE(a[1].asInteger(), std::numeric_limits<std::int64_t>::min());
    QVERIFY(a[2].isInteger() && a[3].isInteger());
    QCOMPARE(a[2].asInteger(), std::int64_t(1));
    // A fraction or an exponent makes a double, and so does -0 (its sign would be lost) and an
    // integer beyond 64 bits. Every one of them is still a number.
    for (std::size_t i = 4; i < a.size(); ++i) {
      QVERIFY2(!a[i].isInteger(), std::to_string(i).c_str());
      QVERIFY(a[i].isNumber());
    }
    QVERIFY(std::signbit(a[6].asNumber()));
    QCOMPARE(a[7].asNumber(), 9223372036854775808.0);
    QCOMPARE(QString::fromStdString(json::write(*r.value, -1)),
             QStringLiteral("[9007199254740993,-9223372036854775808,1,0,1,100,-0,9223372036854775808]"));
    // Counts built in code are written as integers, however large; doubles keep the shortest
    // round-trip form.
    json::Value o = json::Value::object();
    o.add("steps", json::Value::integer(100000));
    o.add("rows", json::Value::integer(std::int64_t(1) << 62));
    o.add("same_as_double", json::Value::number(100000.0));
    QVERIFY(o.find("steps")->isNumber() && o.find("steps")->isInteger());
    QCOMPARE(o.find("steps")->asNumber(), 100000.0);
    QVERIFY(!o.find("same_as_double")->isInteger());
    QCOMPARE(QString::fromStdString(json::write(o, 2)),
             QStringLiteral("{\n  \"steps\": 100000,\n  \"rows\": 4611686018427387904,\n"
                            "  \"same_as_double\": 1e+05\n}\n"));
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

  void errorsNameLineColumnAndPath() {
    // The full message of an error anywhere in a document: line, column (in bytes, after a
    // byte-order mark on the first line), what is wrong and the member or element it is in.
    struct Case {
      std::string text;
      const char* error;
    };
    const Case cases[] = {
        {"{\n  \"a\": {\n    \"b\": [1, 2, {\"c\": tru}]\n  }\n}",
         "line 3, column 23: invalid token 'tru' (at \"a.b[2].c\")"},
        {"[1, 2,\n\n   ]", "line 3, column 4: trailing comma in array"},
        {"{\"a\": 1,\n \"b\" 2}", "line 2, column 6: expected ':' after key \"b\""},
        {"{\"a\": 1,\n \"b\": 2,}", "line 2, column 9: trailing comma in object"},
        {"[1, 2 3]", "line 1, column 7: unexpected '3' in array, expected ',' or ']'"},
        {"{\"a\": [1]\n  \"b\": 2}", "line 2, column 3: unexpected '\"' in object, expected ',' or '}'"},
        {"[\"ok\", \"bad \\q\"]", "line 1, column 13: invalid escape '\\q' (at \"[1]\")"},
        {"\xEF\xBB\xBF{\"k\": -01}", "line 1, column 7: invalid number: leading zeros are not allowed (at \"k\")"},
        {"[1e-400]", "line 1, column 2: number 1e-400 is out of the range of a double (at \"[0]\")"},
        {"{\"x\": [0, \"\xE2\x82\"]}", "line 1, column 12: invalid UTF-8 byte 0xE2 in string (at \"x[1]\")"},
        {"[\"\\u12\"]", "line 1, column 7: invalid hex digit '\"' in \\u escape (at \"[0]\")"},
        {"[\"\\u12", "line 1, column 5: truncated \\u escape (at \"[0]\")"},
        {"{\"a\": {\"a\": 1, \"a\": 2}}", "line 1, column 16: duplicate key \"a\" (at \"a\")"},
        {"{\"s\": [\"x\", \"\\uD834\\u0041\"]}",
         "line 1, column 14: high surrogate in \\u escape without a low surrogate (at \"s[1]\")"},
        {"[\"\\uDD1E\"]", "line 1, column 3: lone low surrogate in \\u escape (at \"[0]\")"},
        {"[truex]", "line 1, column 2: invalid token 'truex' (at \"[0]\")"},
        {"{\"n\": -Infinity}", "line 1, column 7: '-Infinity' is not valid JSON: numbers must be finite (at \"n\")"},
        {"{\"n\":\n\t 1.}", "line 2, column 5: invalid number: expected a digit after '.' (at \"n\")"},
        {"[1,\r\n  {\"k\": \"a\tb\"}]", "line 2, column 11: control character 0x09 in string (use an escape) (at \"[1].k\")"},
        {"{\"k\": 1", "line 1, column 8: unexpected end of input in object, expected ',' or '}'"},
        {"{\"k\": 1,", "line 1, column 9: unexpected end of input in object, expected a key"},
        {"\"abc", "line 1, column 1: unterminated string"},
        // A NUL byte does not end the text early: it is a byte like any other.
        {std::string("1\0", 2), "line 1, column 2: unexpected 0x00 after the JSON value"},
        {std::string("[1,\0]", 5), "line 1, column 4: unexpected 0x00, expected a value (at \"[1]\")"},
        {std::string("{\"a\0\": 1}", 10), "line 1, column 4: control character 0x00 in string (use an escape)"},
    };
    for (const Case& c : cases) {
      const json::ParseResult r = parseText(c.text);
      QVERIFY2(!r.ok(), c.error);
      QCOMPARE(QString::fromStdString(r.error), QString::fromUtf8(c.error));
    }
    const json::ParseResult deep = parseText("[0,\n [1,\n  {\"x\": [2, 3, 1e999]}]]");
    QCOMPARE(deep.line, 3);
    QCOMPARE(deep.column, 16);
    QCOMPARE(deep.path, std::string("[1][1].x[2]"));
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
    std::string sixtyFour;
    for (int i = 0; i < json::kMaxDepth; ++i) sixtyFour += "[0]";
    QCOMPARE(deep.path, sixtyFour);
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
    std::string objects64;
    for (int i = 0; i < json::kMaxDepth - 1; ++i) objects64 += "{\"a\":";
    QVERIFY2(parseText(objects64 + "{}" + std::string(json::kMaxDepth - 1, '}')).ok(), "64 objects");
    const json::ParseResult objects65 = parseText(objects64 + "{\"b\": {}}" + std::string(json::kMaxDepth - 1, '}'));
    QVERIFY(!objects65.ok());
    QVERIFY2(objects65.error.find("nesting deeper than 64 levels") != std::string::npos, objects65.error.c_str());
    QCOMPARE(objects65.path.size(), std::size_t(2 * json::kMaxDepth - 1));  // "a.a. ... .a.b"
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
