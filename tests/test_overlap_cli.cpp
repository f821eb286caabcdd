// `pipesim overlap` as a user runs it: the JSON contract, the text view, the pipeline hand-off, and
// one clear line plus exit 2 on bad input.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_run.h"

namespace {

using Result = pipesim::test::CliResult;

using pipesim::test::cli;

auto write_file(const std::string& name, const std::string& text) -> std::string {
  return pipesim::test::write_scratch("overlap_" + name, text);
}

using pipesim::test::check_refused;
using pipesim::ErrorCode;

const std::string twice_comm = "overlap --forward attn=1,dispatch=3,mlp=1,combine=3 "
                               "--backward combine=3,mlp_b=1,mlp_w=1,dispatch=3,attn_b=1,attn_w=1";

const std::string workload_fields = R"("tokens": 4096, "hidden": 7168, "experts": 256, "top_k": 8,
  "expert_hidden": 2048, "nodes_per_token": 4, "bytes_per_element": 1, "gpu_tflops": 400,
  "nvlink_gbps": 160, "ib_gbps": 50)";

}  // namespace

TEST_CASE("overlap --format json prints f, b, fb, sequential, exposed_comm, hidden_fraction and the timeline") {
  const Result r = cli(twice_comm + " --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["f"] == 8);
  CHECK(j["b"] == 9);
  CHECK(j["fb"] == 12);
  CHECK(j["sequential"] == 17);
  CHECK(j["exposed_comm"] == 6);
  CHECK(j["hidden_fraction"] == 0.5);
  CHECK(j["costs"] == nlohmann::json{{"F", 8}, {"B", 9}, {"W", 2}, {"FB", 12}, {"comm", 0}});
  CHECK(j["sms"].is_null());
  CHECK(j["pair"]["timeline"].size() == 12);
  CHECK(j["pair"]["timeline"][0] == nlohmann::json{{"chunk", "F"}, {"component", "attn"}, {"label", "ATTN(F)"},
                                                   {"lane", "compute"}, {"start", 0}, {"end", 1}});
  CHECK(j["forward"]["makespan"] == 8);
  CHECK(j["derivation"].size() == 12);
  CHECK(j["derivation"][0]["formula"] == "given");
  CHECK(j["sentence"] == "communication 50% hidden; the pair costs 1.50 x the forward chunk (0.71 x F+B)");
}

TEST_CASE("overlap --comm-sms stretches compute by total/(total-comm)") {
  const Result r = cli(twice_comm + " --pp-comm 0.5 --comm-sms 20 --total-sms 132 --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["durations"]["forward"]["attn"].get<double>() == Approx(132.0 / 112));
  CHECK(j["durations"]["forward"]["dispatch"] == 3);
  CHECK(j["durations"]["pp"] == 0.5);
  CHECK(j["measured"]["forward"]["attn"] == 1);
  CHECK(j["sms"]["compute_stretch"].get<double>() == Approx(132.0 / 112));
  CHECK(j["derivation"][0]["worked"] == "1, × 132/112 = 1.17857");
}

TEST_CASE("overlap --format text draws two lanes for each chunk and the pair, and says how much is hidden") {
  const Result r = cli(twice_comm);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("forward chunk alone: f = 8\n  compute |ATTN(F)") != std::string::npos);
  CHECK(r.out.find("the pair, overlapped: fb = 12\n  compute |ATTN(F)") != std::string::npos);
  CHECK(r.out.find("  comm    |COMBINE(B)") != std::string::npos);
  CHECK(r.out.find("exposed communication 6 of 12 (time the compute lane waits); 50% of the communication hidden") !=
        std::string::npos);
  CHECK(r.out.find("communication 50% hidden; the pair costs 1.50 x the forward chunk (0.71 x F+B)") != std::string::npos);
}

TEST_CASE("overlap without inputs derives DeepSeek-V3's workload, and --workload reads a JSON file") {
  const Result deepseek = cli("overlap --format json");
  REQUIRE(deepseek.status == 0);
  const auto d = nlohmann::json::parse(deepseek.out);
  CHECK(d["unit"] == "us");
  CHECK(d["sms"]["comm_sms"] == 20);
  CHECK(d["derivation"][2]["formula"] == "L·T·(k+s)·6·h·h_e / X × total/(total-comm)");

  const std::string path = write_file("workload.json", "{" + workload_fields + "}");
  const Result file = cli("overlap --workload " + path + " --format json");
  std::remove(path.c_str());
  REQUIRE(file.status == 0);
  const auto j = nlohmann::json::parse(file.out);
  CHECK(j["measured"]["forward"]["dispatch"].get<double>() == Approx(2348.81024));
  CHECK(j["sms"].is_null());
}

TEST_CASE("overlap --ratio 1:1 scales the all-to-alls to the compute") {
  const Result r = cli(twice_comm + " --ratio 1:1 --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["ratio"]["comm_scale"] == 0.5);  // compute 6, all-to-all 12
  CHECK(j["durations"]["forward"]["dispatch"] == 1.5);
}

TEST_CASE("overlap --simulate runs the pipeline with the costs derived from the chunk model") {
  const Result r = cli(twice_comm + " --simulate dualpipe --ranks 4 --micro-batches 8 --format json");
  REQUIRE(r.status == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["simulation"]["cost"] == nlohmann::json{{"F", 8}, {"B", 9}, {"W", 2}, {"FB", 12}, {"comm", 0}});
  CHECK(j["simulation"]["schedule"] == "dualpipe");
  CHECK(j["simulation"]["ranks"] == 4);
  CHECK(j["simulation"]["formula"]["value"] == (4 / 2 - 1) * (12 + 9 - 3 * 2));  // (PP/2-1)(F&B+B-3W)
  const Result text = cli(twice_comm + " --simulate dualpipe --ranks 4 --micro-batches 8 --color never");
  REQUIRE(text.status == 0);
  CHECK(text.out.find("rank 3 ") != std::string::npos);
}

TEST_CASE("overlap refuses bad input with one line and exit status 2") {
  check_refused("overlap --forward attn=1,dispatch=1,mlp=1,combine=1", ErrorCode::usage,
                "--forward and --backward go together: give both, or neither to use a --workload");
  check_refused(twice_comm + " --comm-sms 132 --total-sms 132", ErrorCode::bad_value,
                "communication SMs must be at least 1 and fewer than the total SMs (132), got 132");
  check_refused("overlap --forward attn=-1,dispatch=1,mlp=1,combine=1 --backward combine=1,mlp_b=1,mlp_w=1,dispatch=1,attn_b=1,attn_w=1", ErrorCode::bad_value,
                "forward component attn must be a number >= 0, got '-1'");
  check_refused("overlap --forward attn=1,dispatch=1,mlp=1,combine=1 --backward combine=1,mlp_b=1,mlp_w=1,dispatch=1,attn_b=1,attn=1", ErrorCode::unknown_name,
                "unknown backward component 'attn'; backward components are combine, mlp_b, mlp_w, dispatch, attn_b, attn_w");
  check_refused("overlap --forward attn=1,dispatch=1,mlp=1,combine=1 --backward combine=1,mlp_b=1,mlp_w=1,dispatch=1,attn_b=1", ErrorCode::bad_value,
                "backward component attn_w is missing; give all of combine, mlp_b, mlp_w, dispatch, attn_b, attn_w");
  check_refused(twice_comm + " --pp-comm abc", ErrorCode::bad_value, "--pp-comm must be a number from 0 to 1000000000, got 'abc'");
  check_refused(twice_comm + " --ratio 0", ErrorCode::bad_value, "--ratio must be compute:comm like 1:1 or a number > 0, got '0'");
  check_refused(twice_comm + " --ratio 1:x", ErrorCode::bad_value, "--ratio must be compute:comm like 1:1 or a number > 0, got '1:x'");
  // A ratio that would scale communication past any duration is the ratio's fault, and said so.
  check_refused("overlap --ratio 1:1e308", ErrorCode::bad_value, "--ratio must lie between 1:1000000 and 1000000:1, got '1:1e308'");
  check_refused("overlap --ratio 1e-7", ErrorCode::bad_value, "--ratio must lie between 1:1000000 and 1000000:1, got '1e-7'");
  check_refused(twice_comm + " --ranks 4", ErrorCode::usage, "--ranks applies only with --simulate SCHEDULE");
  check_refused(twice_comm + " --total-sms 100", ErrorCode::usage, "--total-sms and --saturation-sms need --comm-sms, the SMs given to communication");
  check_refused("overlap --workload w.json --pp-comm 1", ErrorCode::usage, "--workload replaces --forward, --backward and --pp-comm: give one or the other");
  check_refused("overlap --workload /nonexistent/w.json", ErrorCode::io, "cannot read --workload '/nonexistent/w.json': No such file or directory");
  check_refused("overlap --format xml", ErrorCode::unknown_name, "--format must be one of text|json, got 'xml'");

  const Result unknown = cli(twice_comm + " --simulate nope");  // the schedule list grows: check the start
  CHECK(unknown.status == 2);
  CHECK(unknown.err.rfind("pipesim: error[unknown_name]: unknown schedule 'nope'", 0) == 0);

  const std::string malformed = write_file("malformed.json", "{\"tokens\": 4096,");
  const Result r = cli("overlap --workload " + malformed);
  std::remove(malformed.c_str());
  CHECK(r.status == 2);
  CHECK(r.err.rfind("pipesim: error[bad_import]: workload is not valid JSON: ", 0) == 0);
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);

  const std::string missing = write_file("missing.json", R"({"tokens": 4096})");
  const Result m = cli("overlap --workload " + missing);
  std::remove(missing.c_str());
  CHECK(m.status == 2);
  CHECK(m.err.rfind("pipesim: error[bad_import]: workload field 'hidden' is missing; required fields are", 0) == 0);

  const std::string text = write_file("text.json", "{" + workload_fields + R"(, "layers": "four"})");
  const Result t = cli("overlap --workload " + text);
  std::remove(text.c_str());
  CHECK(t.status == 2);
  CHECK(t.err == "pipesim: error[bad_value]: workload field 'layers' must be a number, got \"four\"\n");
}

TEST_CASE("overlap --workload - reads the workload from standard input, as a path would") {
  const std::string path = write_file("stdin_workload.json", "{" + workload_fields + "}");
  const Result from_file = cli("overlap --format json --workload " + path);
  REQUIRE(from_file.status == 0);
  const Result from_stdin = cli("overlap --format json --workload - < " + path);
  CHECK(from_stdin.status == 0);
  CHECK(from_stdin.out == from_file.out);
  std::remove(path.c_str());
}

TEST_CASE("overlap --lang words the chunk derivation in en, pt-BR or zh-CN, as the page's language codes") {
  const auto mlp_b_formula = [](const std::string& lang) {
    const auto out = nlohmann::json::parse(cli("overlap --format json --lang " + lang).out);
    for (const auto& d : out["derivation"])
      if (d["component"] == "mlp_b") return d["formula"].get<std::string>();
    return std::string("no mlp_b");
  };
  CHECK(mlp_b_formula("en") == "L·T·(k+s)·6·h·h_e / X × total/(total-comm)");
  CHECK(mlp_b_formula("pt-BR") == "L·T·(k+s)·6·h·h_e / X × total/(total-com)");
  CHECK(mlp_b_formula("zh-CN") == "L·T·(k+s)·6·h·h_e / X × 总数/(总数-通信)");
  // English is the default, and the text view words its derivation the same way.
  CHECK(cli("overlap").out == cli("overlap --lang en").out);
  const Result zh = cli("overlap --lang zh-CN");
  REQUIRE(zh.status == 0);
  CHECK(zh.out.find("  MLP(B)      L·T·(k+s)·6·h·h_e / X × 总数/(总数-通信)\n") != std::string::npos);
  CHECK(zh.out.find("total-comm") == std::string::npos);
}

TEST_CASE("overlap --trace --lang words the measured derivation in the language asked") {
  const std::string pair = std::string(PIPESIM_SOURCE_DIR) + "/tests/data/profiler/chunk_pair.json";
  const Result pt = cli("overlap --trace " + pair + " --lang pt-BR");
  REQUIRE(pt.status == 0);
  CHECK(pt.out.find("  ATTN(F)     medido: a união dos seus kernels no trace\n") != std::string::npos);
  const Result zh = cli("overlap --trace " + pair + " --lang zh-CN");
  REQUIRE(zh.status == 0);
  CHECK(zh.out.find("  ATTN(F)     实测：trace 中其各 kernel 的并集\n") != std::string::npos);
}

TEST_CASE("overlap --lang words the text view's headings, lane labels and fixed lines, not only its derivation") {
  // English words of the view that no other language keeps (the figure's labels, symbols and units stay).
  const std::vector<std::string> english = {"forward chunk alone", "backward chunk alone", "the pair, overlapped", "  compute |",
                                            "  comm    |", "exposed communication", "component durations", "pipeline costs",
                                            "of the communication hidden", "One forward chunk", "sequential"};
  const auto check_worded = [&](const std::string& lang, const std::vector<std::string>& expected) {
    const Result r = cli("overlap --comm-sms 20 --lang " + lang);
    REQUIRE(r.status == 0);
    for (const std::string& word : english) CHECK(r.out.find(word) == std::string::npos);
    for (const std::string& line : expected) CHECK(r.out.find(line) != std::string::npos);
  };
  check_worded("pt-BR", {"chunk forward sozinho: f = ", "chunk backward sozinho: b = ", "o par, sobreposto: fb = ",
                         "\n  computação  |ATTN(F)", "\n  comunicação |", "comunicação 100% escondida; o par custa 1.99 x o chunk forward (0.79 x F+B)\n",
                         "\ndurações dos componentes (20 de 132 SMs comunicam: computação x 1.17857, comunicação x 1):\n"});
  check_worded("zh-CN", {"单独的前向 chunk：f = ", "单独的反向 chunk：b = ", "重叠的一对：fb = ", "\n  计算 |ATTN(F)", "\n  通信 |",
                         "通信隐藏了 100%；这一对的开销是前向 chunk 的 1.99 倍（F+B 的 0.79 倍）\n",
                         "\n各组件的时长（132 个 SM 中 20 个用于通信：计算 x 1.17857，通信 x 1）：\n"});
  // The lanes' rows start in one column whatever the language, so the two lanes line up.
  const Result en = cli("overlap --lang en");
  CHECK(en.out.find("\n  compute |") != std::string::npos);
  CHECK(en.out.find("\n  comm    |") != std::string::npos);
}

TEST_CASE("overlap's JSON carries the text view's headings in the asked language, for the page's figure") {
  const auto headings = [](const std::string& lang) {
    const Result r = cli("overlap --format json --lang " + lang);
    REQUIRE(r.status == 0);
    return nlohmann::json::parse(r.out)["headings"];
  };
  CHECK(headings("en") == nlohmann::json{{"forward", "forward chunk alone: f"}, {"backward", "backward chunk alone: b"},
                                         {"pair", "the pair, overlapped: fb"}, {"compute_lane", "compute"}, {"comm_lane", "comm"}});
  CHECK(headings("pt-BR")["pair"] == "o par, sobreposto: fb");
  CHECK(headings("pt-BR")["compute_lane"] == "computação");
  CHECK(headings("zh-CN")["forward"] == "单独的前向 chunk：f");
  // The text view heads its lane pairs with the same words.
  const Result zh = cli("overlap --lang zh-CN");
  REQUIRE(zh.status == 0);
  CHECK(zh.out.find("\n单独的前向 chunk：f = ") != std::string::npos);
}

TEST_CASE("overlap --trace --lang words the measured pair's view too") {
  const std::string pair = std::string(PIPESIM_SOURCE_DIR) + "/tests/data/profiler/chunk_pair.json";
  const Result en = cli("overlap --trace " + pair);
  REQUIRE(en.status == 0);
  CHECK(en.out.find("\nmeasured pair (rank 3, device 0, 15 kernels; 1 column = 0.4583 us; capitals forward, lower case backward, ? unattributed): span 44 us\n") != std::string::npos);
  CHECK(en.out.find("\nunattributed: 1 kernel (1 us compute, 0 us communication)\n") != std::string::npos);
  const Result pt = cli("overlap --trace " + pair + " --lang pt-BR");
  REQUIRE(pt.status == 0);
  CHECK(pt.out.find("\npar medido (rank 3, dispositivo 0, 15 kernels; 1 coluna = 0.4583 us;") != std::string::npos);
  CHECK(pt.out.find("\no modelo prevê fb = 42.75 us para estes componentes; duração medida 44 us\n") != std::string::npos);
  CHECK(pt.out.find("measured") == std::string::npos);
  const Result zh = cli("overlap --trace " + pair + " --lang zh-CN");
  REQUIRE(zh.status == 0);
  CHECK(zh.out.find("\n计算忙碌 42.75 us，通信忙碌 28.25 us，隐藏 27.5 us，暴露 0.75 us\n") != std::string::npos);
  CHECK(zh.out.find("\n供流水线使用的实测成本：F=35.25, B=30.5, W=5.75, FB=44（实测跨度），comm=0\n") != std::string::npos);
  CHECK(zh.out.find("measured") == std::string::npos);
}

TEST_CASE("overlap --lang refuses an unknown language code with exit 2, before reading any file") {
  check_refused("overlap --lang fr", ErrorCode::unknown_name, "unknown language 'fr'; languages are en, pt-BR, zh-CN");
  check_refused("overlap --lang pt_BR", ErrorCode::unknown_name, "unknown language 'pt_BR'; languages are en, pt-BR, zh-CN");
  check_refused("overlap --lang fr --trace /nonexistent/trace.json", ErrorCode::unknown_name,
                "unknown language 'fr'; languages are en, pt-BR, zh-CN");
  check_refused("overlap --lang fr --workload /nonexistent/w.json", ErrorCode::unknown_name,
                "unknown language 'fr'; languages are en, pt-BR, zh-CN");
}
