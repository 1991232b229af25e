// The recurrent layers (nn::RNN, LSTM, GRU, their cells) and packed sequences
// (nn::utils::rnn::PackedSequence, pack_padded_sequence, pad_packed_sequence, pack_sequence),
// against numbers from LibTorch 1.13 for the same weights and inputs, with their gradients,
// packed against padded runs, and LibTorch's errors and printing.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "test_helpers.h"

namespace {

using torch::Tensor;
namespace nn = torch::nn;
namespace rnn_utils = torch::nn::utils::rnn;
using test_helpers::printed;
using test_helpers::shape;
using test_helpers::values;
using S = std::vector<int64_t>;

// Every parameter, in registration order k, set to 0.4 * sin(0.37 * i + k) over its elements i:
// the same in the LibTorch program the expected numbers come from.
void set_weights(nn::Module& module) {
  torch::NoGradGuard no_grad;
  int k = 0;
  for (Tensor& p : module.parameters()) {
    p.copy_((torch::arange(p.numel()).to(torch::kFloat) * 0.37 + k).sin().reshape(p.sizes()) * 0.4);
    ++k;
  }
}

// cos(0.23 * i) in the given shape.
Tensor input(const S& sizes) {
  int64_t n = 1;
  for (int64_t size : sizes) n *= size;
  return (torch::arange(n).to(torch::kFloat) * 0.23).cos().reshape(sizes);
}

struct Expected {
  S sizes;
  std::vector<double> values;
};

// Printed by LibTorch 1.13 for the computations below (7 significant digits).
const std::map<std::string, Expected>& libtorch_values() {
  static const std::map<std::string, Expected> table = {
    {"rnn_tanh_out", {{3,2,8}, {-0.5702716, -0.2088015, -0.5588256, -0.7508196, 0.7259971, 0.7883199, 0.1638797, -0.4865265, -0.6596822, -0.6669505, -0.563389, -0.3816426, 0.7789366, 0.7349439, 0.2983291, -0.5557916, -0.5882503, 0.231053, -0.6911573, -0.8417615, 0.7741757, 0.6299043, 0.5192471, -0.5973843, -0.7372997, 0.4257924, -0.6722843, -0.8418313, 0.8456804, 0.5080103, 0.6347525, -0.7098148, -0.6526397, 0.2722423, -0.7685323, -0.7917491, 0.9306465, 0.4164861, 0.2721162, -0.6829938, -0.6876749, 0.2694079, -0.768632, -0.7765521, 0.9321604, 0.3907163, 0.3899953, -0.7253427}}},
    {"rnn_tanh_h", {{4,2,4}, {0.0929592, -0.5358842, -0.5851719, -0.04631071, -0.1683618, -0.5520598, -0.2960712, 0.07064384, -0.8028465, 0.123536, 0.8388954, 0.8583081, -0.7592732, 0.2200252, 0.8657985, 0.7973903, -0.6526397, 0.2722423, -0.7685323, -0.7917491, -0.6876749, 0.2694079, -0.768632, -0.7765521, 0.7259971, 0.7883199, 0.1638797, -0.4865265, 0.7789366, 0.7349439, 0.2983291, -0.5557916}}},
    {"rnn_relu_out", {{2,3,4}, {0.3825161, 1.090683, 0.5874534, 0, 0.9856885, 0.8757359, 0, 0, 0.5976238, 0.2930003, 0, 0, 0, 0, 0, 0.4392855, 0, 0, 0, 0.6446448, 0, 0, 0, 0.551599}}},
    {"rnn_relu_h", {{1,2,4}, {0.5976238, 0.2930003, 0, 0, 0, 0, 0, 0.551599}}},
    {"lstm_out", {{3,2,8}, {0.04134262, 0.1620483, 0.05398178, 0.1322047, -0.2620578, -0.257993, -0.1198088, -0.1184309, 0.04534504, 0.1584474, 0.05553126, 0.1312713, -0.2712881, -0.2585699, -0.1409139, -0.1005363, 0.0985437, 0.1811832, 0.08153464, 0.2160057, -0.2538133, -0.2499307, -0.1473479, -0.09083214, 0.116632, 0.1669148, 0.0883128, 0.2124352, -0.2600003, -0.2521003, -0.1706646, -0.06307071, 0.1547222, 0.1548206, 0.1042785, 0.2623927, -0.1921585, -0.1919224, -0.1307017, -0.08219333, 0.163447, 0.1478844, 0.1078476, 0.25583, -0.1922288, -0.1918403, -0.1308199, -0.08208301}}},
    {"lstm_h", {{4,2,4}, {-0.1728075, -0.0249757, 0.1721791, 0.1971968, -0.2087356, 0.02844801, 0.1660479, 0.1373717, -0.002477843, -0.01877048, -0.2234909, -0.4505894, -0.03979896, -0.1256715, -0.2236304, -0.3118302, 0.1547222, 0.1548206, 0.1042785, 0.2623927, 0.163447, 0.1478844, 0.1078476, 0.25583, -0.2620578, -0.257993, -0.1198088, -0.1184309, -0.2712881, -0.2585699, -0.1409139, -0.1005363}}},
    {"lstm_c", {{4,2,4}, {-0.5175004, -0.06328341, 0.2487069, 0.2302701, -0.5500785, 0.06256591, 0.2487475, 0.1667764, -0.01367088, -0.05544978, -0.4284012, -0.9373143, -0.1647117, -0.3752592, -0.5325704, -0.6950024, 0.2478703, 0.2844515, 0.2417298, 0.6135817, 0.262166, 0.2708149, 0.2508561, 0.5949426, -0.457134, -0.6881128, -0.1804485, -0.1851956, -0.4791055, -0.6824223, -0.2143637, -0.1564164}}},
    {"lstm_grad_x", {{3,2,3}, {0.1348947, 0.05090736, -0.03997009, 0.1871255, 0.1277895, 0.05115788, 0.1558199, 0.1282442, 0.08331126, 0.1767475, 0.1560985, 0.1143225, 0.09239741, 0.06205765, 0.02331879, 0.08581766, 0.05254496, 0.01216067}}},
    {"lstm_grad_whh_l1_reverse", {{16,4}, {0.04459059, 0.04358531, 0.02770808, 0.01344758, 0.08698763, 0.08505847, 0.05398447, 0.02645704, 0.01784821, 0.01745003, 0.01117039, 0.005392885, 0.02467346, 0.02414102, 0.01529316, 0.00760555, 0.04593742, 0.04489103, 0.02852909, 0.01378591, 0.05646881, 0.05520604, 0.03501127, 0.01711322, 0.02664743, 0.0260402, 0.01660469, 0.007982999, 0.01304852, 0.01279119, 0.008078676, 0.00418497, -0.1695405, -0.1657471, -0.1050365, -0.05138339, -0.09761374, -0.09545821, -0.06078378, -0.02970845, -0.2554952, -0.2498704, -0.1584392, -0.0779999, -0.2722386, -0.2664582, -0.1702021, -0.08425396, -0.05595557, -0.05524904, -0.03636364, -0.02020902, -0.07162709, -0.07068449, -0.0463477, -0.02565464, -0.01638512, -0.01622638, -0.01082656, -0.006200824, -0.007431833, -0.007332491, -0.0047608, -0.00265977}}},
    {"lstm_grad_bih_l0", {{16}, {-0.4722631, 0.1340251, 0.3278124, 0.1333268, -0.2312724, -0.2045732, 0.008811735, 0.06303827, 1.097019, 0.7002011, 0.3683028, 1.059949, 0.04901049, 0.05863502, 0.01267414, -0.01641015}}},
    {"lstmp_out", {{3,2,2}, {0.02894201, 0.3152405, 0.07228759, 0.4762299, 0.03524767, 0.3654391, 0.03728539, 0.4031221, 0.03453478, 0.3694484, 0.03305795, 0.38747}}},
    {"lstmp_h", {{2,2,2}, {-0.08426207, 0.04173844, -0.09255984, 0.04210186, 0.03453478, 0.3694484, 0.03305795, 0.38747}}},
    {"lstmp_c", {{2,2,4}, {-0.3890032, 0.07389801, 0.2526729, 0.1339069, -0.4329416, 0.1616467, 0.2722659, 0.1265069, -0.7904534, -0.7135857, -0.5631756, -0.4213661, -0.8938668, -0.7628458, -0.5899542, -0.4393678}}},
    {"gru_out", {{2,3,8}, {-0.3129677, -0.1507843, -0.1873601, 0.2260137, -0.6114135, -0.08299316, -0.3947365, -0.2408447, -0.243071, 0.2301398, -0.05349389, 0.4007751, -0.1364453, 0.09028977, 0.07346708, -0.6153776, -0.2552906, 0.4756874, -0.09438011, 0.5139353, 0.3709925, 0.6696417, 0.1705163, -0.6016436, -0.06927907, 0.4788567, 0.07611442, 0.637539, -0.6813245, -0.002202392, -0.3613617, -0.2930471, -0.03518442, 0.6245463, -0.1076604, 0.7055396, -0.5869019, 0.4777417, -0.3158657, -0.4429298, -0.09227795, 0.7221124, -0.2939354, 0.7575459, -0.04166418, 0.8732753, -0.1561974, -0.51141}}},
    {"gru_h", {{4,2,4}, {-0.3446635, -0.3472435, -0.2048334, 0.06996462, -0.1255515, 0.5031196, 0.5715266, -0.1053125, 0.1218624, 0.4494878, -0.3956069, -0.7919099, -0.2365742, -0.8298668, -0.7336491, -0.2482622, -0.2552906, 0.4756874, -0.09438011, 0.5139353, -0.09227795, 0.7221124, -0.2939354, 0.7575459, -0.6114135, -0.08299316, -0.3947365, -0.2408447, -0.6813245, -0.002202392, -0.3613617, -0.2930471}}},
    {"gru_grad_x", {{2,3,3}, {-0.0298362, 0.1446384, 0.299537, 0.05908815, 0.1800866, 0.2767111, 0.2695663, 0.4374692, 0.5461625, -0.5432147, -0.3984146, -0.1996909, -0.2348597, -0.1483278, -0.04172032, -0.2468253, -0.2628315, -0.2432646}}},
    {"gru_grad_wih_l0", {{12,3}, {0.02586141, 0.01338638, 0.000206335, -0.01630793, -0.03174782, -0.04551564, -0.01048361, -0.004429139, 0.001858606, -0.02566372, -0.02050299, -0.01426243, 0.03567113, 0.0386451, 0.03958374, 0.1383851, 0.1408699, 0.1359355, 0.1755317, 0.1601015, 0.1362391, 0.1201672, 0.1098662, 0.09377877, 0.07826915, 0.1693307, 0.2514741, -0.5488851, -0.4955892, -0.416192, -0.9001993, -0.909128, -0.8701752, 0.299453, 0.07404399, -0.1552647}}},
    {"gru_packed_data", {{7,8}, {0.07179154, -0.166992, -0.3668594, -0.1177502, -0.1953747, 0.1388353, -0.4638371, -0.5774226, 0.7032908, 0.1874825, -0.4296746, 0.1388186, -0.5275198, 0.07666743, -0.5716124, -0.7962533, -0.5026225, -0.4800877, -0.1778714, -0.1990589, -0.1332106, 0.05961084, 0.2054288, 0.05276525, -0.2117088, 0.2173869, 0.4748431, 0.1014315, -0.3588182, -0.2090004, -0.5758209, -0.3581878, 0.2094804, 0.3013453, 0.2674646, -0.08255053, -0.6617646, -0.8752525, -0.8145574, -0.6702117, -0.2697908, -0.2811843, -0.1661455, 0.05875356, -0.4246387, 0.07246631, -0.5456321, -0.6701108, -0.3333668, -0.6606541, -0.4068191, 0.06555375, -0.669804, -0.08169657, -0.4871097, -0.6122897}}},
    {"gru_packed_batch_sizes", {{4}, {3, 2, 1, 1}}},
    {"gru_packed_padded", {{3,4,8}, {0.7032908, 0.1874825, -0.4296746, 0.1388186, -0.5275198, 0.07666743, -0.5716124, -0.7962533, 0.2094804, 0.3013453, 0.2674646, -0.08255053, -0.6617646, -0.8752525, -0.8145574, -0.6702117, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0.07179154, -0.166992, -0.3668594, -0.1177502, -0.1953747, 0.1388353, -0.4638371, -0.5774226, -0.2117088, 0.2173869, 0.4748431, 0.1014315, -0.3588182, -0.2090004, -0.5758209, -0.3581878, -0.2697908, -0.2811843, -0.1661455, 0.05875356, -0.4246387, 0.07246631, -0.5456321, -0.6701108, -0.3333668, -0.6606541, -0.4068191, 0.06555375, -0.669804, -0.08169657, -0.4871097, -0.6122897, -0.5026225, -0.4800877, -0.1778714, -0.1990589, -0.1332106, 0.05961084, 0.2054288, 0.05276525, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1}}},
    {"gru_packed_lengths", {{3}, {2, 4, 1}}},
    {"gru_packed_h", {{2,3,4}, {0.2094804, 0.3013453, 0.2674646, -0.08255053, -0.3333668, -0.6606541, -0.4068191, 0.06555375, -0.5026225, -0.4800877, -0.1778714, -0.1990589, -0.5275198, 0.07666743, -0.5716124, -0.7962533, -0.1953747, 0.1388353, -0.4638371, -0.5774226, -0.1332106, 0.05961084, 0.2054288, 0.05276525}}},
    {"lstm_packed_padded", {{4,3,8}, {0.03913974, 0.1634488, 0.05162592, 0.1348341, -0.2807459, -0.2590701, -0.1514864, -0.08969702, 0.05122127, 0.1543112, 0.06124492, 0.1250912, -0.2479655, -0.246027, -0.1249304, -0.1150663, 0.09004963, 0.1233249, 0.08784624, 0.1010066, -0.1872814, -0.1968727, -0.123023, -0.0887882, 0.1265366, 0.1576081, 0.09549471, 0.206676, -0.2817799, -0.2737443, -0.2014613, -0.008604113, 0.1329554, 0.1537846, 0.1015099, 0.1979272, -0.1936063, -0.1900885, -0.1334318, -0.07944931, 0, 0, 0, 0, 0, 0, 0, 0, 0.1773067, 0.136267, 0.1186917, 0.2437612, -0.2452824, -0.2638439, -0.1668388, -0.05410824, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.1478142, 0.1598018, 0.1006852, 0.2848267, -0.1559235, -0.2140194, -0.06983259, -0.1255135, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}}},
    {"lstm_packed_h", {{4,3,4}, {-0.2083413, -0.4792094, -0.2473929, 0.08522102, -0.1389125, -0.03419339, 0.1683372, 0.214867, -0.1445118, -0.07869759, -0.01646036, 0.03926282, 0.004706176, -0.03892477, -0.2528552, -0.4612556, -0.03837906, -0.06775393, -0.1834918, -0.293337, -0.01912181, -0.05643744, -0.08796722, -0.1330084, 0.1478142, 0.1598018, 0.1006852, 0.2848267, 0.1329554, 0.1537846, 0.1015099, 0.1979272, 0.09004963, 0.1233249, 0.08784624, 0.1010066, -0.2807459, -0.2590701, -0.1514864, -0.08969702, -0.2479655, -0.246027, -0.1249304, -0.1150663, -0.1872814, -0.1968727, -0.123023, -0.0887882}}},
    {"lstm_packed_c", {{4,3,4}, {-0.2606237, -0.6847674, -0.4403455, 0.2077588, -0.4310687, -0.09266574, 0.2376659, 0.2479409, -0.2504012, -0.1222134, -0.02412548, 0.05790814, 0.0259932, -0.1146403, -0.4928538, -0.9822076, -0.165276, -0.1971087, -0.410917, -0.6333554, -0.05718822, -0.175479, -0.2560747, -0.332739, 0.2336924, 0.3015005, 0.2271012, 0.7378896, 0.2159655, 0.2767673, 0.2284533, 0.4441563, 0.1506049, 0.2148895, 0.1802841, 0.2282493, -0.4879913, -0.7034739, -0.2302605, -0.1403134, -0.4426432, -0.6018102, -0.1897227, -0.1796578, -0.363957, -0.3702398, -0.1925022, -0.1398877}}},
    {"lstm_packed_grad_x", {{4,3,3}, {-0.01431819, -0.05014991, -0.0791942, 0.01320041, -0.01990549, -0.05031739, -0.1835948, -0.2483263, -0.2794478, 0.0424873, 0.03136606, 0.0159996, -0.05050629, -0.06969964, -0.07945941, 0, 0, 0, -0.03124824, -0.03503552, -0.03408088, 0, 0, 0, 0, 0, 0, -0.07132676, -0.1239216, -0.1597442, 0, 0, 0, 0, 0, 0}}},
    {"rnncell", {{2,4}, {2.138943, 1.474919, 0, 0, 1.043316, 1.059767, 0, 0}}},
    {"rnncell_nohx", {{2,4}, {0.802683, 1.279024, 0.5184764, 0, 0.6179718, 0.8630596, 0.3332613, 0}}},
    {"lstmcell_h", {{2,4}, {0.4870207, -0.007971083, -0.121567, -0.01052997, -0.03220794, -0.1993936, -0.1954896, -0.03421509}}},
    {"lstmcell_c", {{2,4}, {0.6261868, -0.008486703, -0.228713, -0.06772143, -0.04320186, -0.2433657, -0.3088437, -0.08580337}}},
    {"grucell", {{2,4}, {0.8905243, 0.5168405, -0.1328697, 0.2882067, 0.4264794, 0.1006687, -0.1788147, -0.1077303}}},
  };
  return table;
}

void check_matches(const std::string& name, const Tensor& got, double margin = 2e-6) {
  const Expected& expected = libtorch_values().at(name);
  INFO(name);
  REQUIRE(shape(got) == expected.sizes);
  const std::vector<double> got_values = values(got);
  for (size_t i = 0; i < got_values.size(); ++i) {
    INFO("element " << i);
    CHECK(got_values[i] == Approx(expected.values[i]).margin(margin));
  }
}

bool all_close(const Tensor& a, const Tensor& b, double tolerance = 1e-6) {
  if (shape(a) != shape(b)) return false;
  return (a - b).abs().max().item<double>() <= tolerance;
}

// Analytic gradients of sum(f(inputs) * w) against central differences, in double precision.
void check_gradients(const std::function<Tensor(const std::vector<Tensor>&)>& f, std::vector<Tensor> inputs) {
  for (Tensor& x : inputs) x = x.detach().to(torch::kDouble).contiguous().requires_grad_();
  const Tensor output = f(inputs);
  const Tensor weight = torch::linspace(-1, 1, output.numel(), torch::kDouble).reshape(output.sizes());
  const std::vector<Tensor> analytic = torch::autograd::grad({(output * weight).sum()}, inputs);
  const double eps = 1e-6;
  for (size_t i = 0; i < inputs.size(); ++i) {
    double* data = inputs[i].data_ptr<double>();
    const std::vector<double> got = values(analytic[i]);
    for (int64_t j = 0; j < inputs[i].numel(); ++j) {
      const double saved = data[j];
      data[j] = saved + eps;
      const double plus = (f(inputs).detach() * weight).sum().item<double>();
      data[j] = saved - eps;
      const double minus = (f(inputs).detach() * weight).sum().item<double>();
      data[j] = saved;
      INFO("input " << i << " element " << j);
      CHECK(got[j] == Approx((plus - minus) / (2 * eps)).margin(1e-6).epsilon(1e-5));
    }
  }
}

}  // namespace

TEST_CASE("RNN (tanh, relu), LSTM and GRU give LibTorch's outputs and states for the same weights", "[recurrent]") {
  {
    nn::RNN m(nn::RNNOptions(3, 4).num_layers(2).bidirectional(true));
    set_weights(*m);
    auto [output, h_n] = m->forward(input({3, 2, 3}), input({4, 2, 4}) * 0.5);
    check_matches("rnn_tanh_out", output);
    check_matches("rnn_tanh_h", h_n);
  }
  {
    nn::RNN m(nn::RNNOptions(3, 4).nonlinearity(torch::kReLU).bias(false).batch_first(true));
    set_weights(*m);
    auto [output, h_n] = m->forward(input({2, 3, 3}));
    check_matches("rnn_relu_out", output);
    check_matches("rnn_relu_h", h_n);
  }
  {
    nn::LSTM m(nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true));
    set_weights(*m);
    Tensor x = input({3, 2, 3}).requires_grad_();
    auto [output, state] = m->forward(x);
    check_matches("lstm_out", output);
    check_matches("lstm_h", std::get<0>(state));
    check_matches("lstm_c", std::get<1>(state));
    (output.pow(2).sum() + std::get<1>(state).sum()).backward();
    check_matches("lstm_grad_x", x.grad());
    check_matches("lstm_grad_whh_l1_reverse", m->named_parameters()["weight_hh_l1_reverse"].grad());
    check_matches("lstm_grad_bih_l0", m->named_parameters()["bias_ih_l0"].grad());
  }
  {
    nn::LSTM m(nn::LSTMOptions(3, 4).proj_size(2).num_layers(2));
    set_weights(*m);
    auto [output, state] = m->forward(input({3, 2, 3}), std::make_tuple(input({2, 2, 2}), input({2, 2, 4})));
    check_matches("lstmp_out", output);
    check_matches("lstmp_h", std::get<0>(state));
    check_matches("lstmp_c", std::get<1>(state));
  }
  {
    nn::GRU m(nn::GRUOptions(3, 4).num_layers(2).bidirectional(true).batch_first(true));
    set_weights(*m);
    Tensor x = input({2, 3, 3}).requires_grad_();
    auto [output, h_n] = m->forward(x, input({4, 2, 4}));
    check_matches("gru_out", output);
    check_matches("gru_h", h_n);
    (output.sum() + h_n.pow(2).sum()).backward();
    check_matches("gru_grad_x", x.grad());
    check_matches("gru_grad_wih_l0", m->named_parameters()["weight_ih_l0"].grad());
  }
}

TEST_CASE("RNNCell, LSTMCell and GRUCell give LibTorch's next states", "[recurrent]") {
  nn::RNNCell rnn_cell(nn::RNNCellOptions(3, 4).nonlinearity(torch::kReLU));
  set_weights(*rnn_cell);
  check_matches("rnncell", rnn_cell->forward(input({2, 3}), input({2, 4})));
  check_matches("rnncell_nohx", rnn_cell(input({2, 3})));
  nn::LSTMCell lstm_cell(3, 4);
  set_weights(*lstm_cell);
  auto [h, c] = lstm_cell->forward(input({2, 3}), std::make_tuple(input({2, 4}), input({2, 4}) * 0.3));
  check_matches("lstmcell_h", h);
  check_matches("lstmcell_c", c);
  nn::GRUCell gru_cell(nn::GRUCellOptions(3, 4).bias(false));
  set_weights(*gru_cell);
  check_matches("grucell", gru_cell->forward(input({2, 3}), input({2, 4})));

  // The functions behind the cells (torch::lstm_cell, ...), with the modules' weights.
  auto [function_h, function_c] = torch::lstm_cell(input({2, 3}), {input({2, 4}), input({2, 4}) * 0.3},
                                                   lstm_cell->weight_ih, lstm_cell->weight_hh, lstm_cell->bias_ih,
                                                   lstm_cell->bias_hh);
  check_matches("lstmcell_h", function_h);
  check_matches("lstmcell_c", function_c);
  check_matches("grucell", torch::gru_cell(input({2, 3}), input({2, 4}), gru_cell->weight_ih, gru_cell->weight_hh));
  check_matches("rnncell", torch::rnn_relu_cell(input({2, 3}), input({2, 4}), rnn_cell->weight_ih, rnn_cell->weight_hh,
                                                rnn_cell->bias_ih, rnn_cell->bias_hh));
  nn::RNNCell tanh_cell(3, 4);
  const Tensor x = input({2, 3}), hidden = input({2, 4});
  const Tensor by_hand = (x.matmul(tanh_cell->weight_ih.t()) + tanh_cell->bias_ih + hidden.matmul(tanh_cell->weight_hh.t()) +
                          tanh_cell->bias_hh)
                             .tanh();
  CHECK(all_close(tanh_cell->forward(x, hidden), by_hand));
  CHECK(all_close(torch::rnn_tanh_cell(x, hidden, tanh_cell->weight_ih, tanh_cell->weight_hh, tanh_cell->bias_ih,
                                       tanh_cell->bias_hh),
                  by_hand));
}

TEST_CASE("packed input: LibTorch's outputs, and each sequence as if run alone", "[recurrent][packed]") {
  {
    nn::GRU m(nn::GRUOptions(3, 4).bidirectional(true));
    set_weights(*m);
    const Tensor x = input({4, 3, 3});
    const Tensor lengths = torch::tensor({2, 4, 1});
    const Tensor h0 = input({2, 3, 4});
    auto packed = rnn_utils::pack_padded_sequence(x, lengths, false, /*enforce_sorted=*/false);
    auto [output, h_n] = m->forward_with_packed_input(packed, h0);
    check_matches("gru_packed_data", output.data());
    check_matches("gru_packed_batch_sizes", output.batch_sizes());
    auto [padded, padded_lengths] = rnn_utils::pad_packed_sequence(output, true, -1.0);
    check_matches("gru_packed_padded", padded);
    check_matches("gru_packed_lengths", padded_lengths);
    check_matches("gru_packed_h", h_n);
    // Packing skips the padding: sequence b alone, of its own length, gives the same numbers.
    const std::vector<int64_t> length_of = {2, 4, 1};
    for (int64_t b = 0; b < 3; ++b) {
      const Tensor alone_input = x.narrow(1, b, 1).narrow(0, 0, length_of[b]);
      auto [alone_output, alone_h] = m->forward(alone_input, h0.narrow(1, b, 1));
      CHECK(all_close(padded.narrow(0, b, 1).narrow(1, 0, length_of[b]), alone_output.transpose(0, 1)));
      CHECK(all_close(h_n.narrow(1, b, 1), alone_h));
    }
  }
  {
    nn::LSTM m(nn::LSTMOptions(3, 4).num_layers(2).bidirectional(true));
    set_weights(*m);
    Tensor x = input({4, 3, 3}).requires_grad_();
    auto packed = rnn_utils::pack_padded_sequence(x, torch::tensor({4, 2, 1}));
    auto [output, state] = m->forward_with_packed_input(packed);
    auto [padded, lengths] = rnn_utils::pad_packed_sequence(output);
    check_matches("lstm_packed_padded", padded);
    check_matches("lstm_packed_h", std::get<0>(state));
    check_matches("lstm_packed_c", std::get<1>(state));
    (padded.pow(2).sum() + std::get<0>(state).sum()).backward();
    check_matches("lstm_packed_grad_x", x.grad());
  }
  {
    // Sequences of equal length: packed and dense runs agree.
    nn::LSTM m(nn::LSTMOptions(3, 5).num_layers(2).bidirectional(true));
    const Tensor x = input({4, 2, 3});
    auto [dense, dense_state] = m->forward(x);
    auto [packed, packed_state] = m->forward_with_packed_input(rnn_utils::pack_padded_sequence(x, torch::tensor({4, 4})));
    CHECK(all_close(std::get<0>(rnn_utils::pad_packed_sequence(packed)), dense));
    CHECK(all_close(std::get<0>(packed_state), std::get<0>(dense_state)));
    CHECK(all_close(std::get<1>(packed_state), std::get<1>(dense_state)));
  }
}

TEST_CASE("pack_padded_sequence, pad_packed_sequence and pack_sequence lay out rows as LibTorch does", "[recurrent][packed]") {
  const Tensor x = torch::arange(12.).reshape({4, 3});
  auto packed = rnn_utils::pack_padded_sequence(x, torch::tensor({2, 3, 1}), false, /*enforce_sorted=*/false);
  CHECK(values(packed.data()) == std::vector<double>{1, 0, 2, 4, 3, 7});
  CHECK(values(packed.batch_sizes()) == std::vector<double>{3, 2, 1});
  CHECK(packed.batch_sizes().scalar_type() == torch::kLong);
  CHECK(values(packed.sorted_indices()) == std::vector<double>{1, 0, 2});
  CHECK(values(packed.unsorted_indices()) == std::vector<double>{1, 0, 2});
  auto [padded, lengths] = rnn_utils::pad_packed_sequence(packed);
  CHECK(values(padded) == std::vector<double>{0, 1, 2, 3, 4, 0, 0, 7, 0});
  CHECK(values(lengths) == std::vector<double>{2, 3, 1});
  auto [batch_first, lengths_again] = rnn_utils::pad_packed_sequence(packed, true, -1, 5);
  CHECK(shape(batch_first) == S{3, 5});
  CHECK(values(batch_first) == std::vector<double>{0, 3, -1, -1, -1, 1, 4, 7, -1, -1, 2, -1, -1, -1, -1});
  CHECK(values(lengths_again) == std::vector<double>{2, 3, 1});

  auto sorted = rnn_utils::pack_padded_sequence(x, torch::tensor({4, 3, 1}));
  CHECK(!sorted.sorted_indices().defined());
  CHECK(!sorted.unsorted_indices().defined());
  CHECK(shape(sorted.data()) == S{8});

  auto from_list = rnn_utils::pack_sequence({torch::arange(3.), torch::arange(5.), torch::arange(1.)}, false);
  CHECK(values(from_list.data()) == std::vector<double>{0, 0, 0, 1, 1, 2, 2, 3, 4});
  CHECK(values(from_list.batch_sizes()) == std::vector<double>{3, 2, 2, 1, 1});
  CHECK(values(from_list.sorted_indices()) == std::vector<double>{1, 0, 2});
  CHECK(values(rnn_utils::invert_permutation(torch::tensor({2, 0, 1}))) == std::vector<double>{1, 2, 0});

  // Gradients flow through packing and padding back to the padded input.
  Tensor leaf = torch::arange(12.).reshape({4, 3}).requires_grad_();
  auto [round_trip, unused] = rnn_utils::pad_packed_sequence(
      rnn_utils::pack_padded_sequence(leaf, torch::tensor({2, 3, 1}), false, false), false, 0, /*total_length=*/4);
  (round_trip * torch::arange(12.).reshape({4, 3})).sum().backward();
  CHECK(values(leaf.grad()) == std::vector<double>{0, 1, 2, 3, 4, 0, 0, 7, 0, 0, 0, 0});
}

TEST_CASE("recurrent layers' gradients match central differences", "[recurrent][gradcheck]") {
  nn::LSTM lstm(nn::LSTMOptions(2, 3).num_layers(2).bidirectional(true).proj_size(2));
  lstm->to(torch::kDouble);
  check_gradients(
      [&](const std::vector<Tensor>& xs) {
        auto [output, state] = lstm->forward(xs[0], std::make_tuple(xs[1], xs[2]));
        return torch::cat({output.flatten(), std::get<0>(state).flatten(), std::get<1>(state).flatten()});
      },
      {input({3, 2, 2}), input({4, 2, 2}) * 0.5, input({4, 2, 3})});

  nn::GRU gru(nn::GRUOptions(2, 3).bidirectional(true).batch_first(true));
  gru->to(torch::kDouble);
  check_gradients(
      [&](const std::vector<Tensor>& xs) {
        auto packed = rnn_utils::pack_padded_sequence(xs[0], torch::tensor({2, 4, 3}), true, false);
        auto [output, h_n] = gru->forward_with_packed_input(packed, xs[1]);
        return torch::cat({std::get<0>(rnn_utils::pad_packed_sequence(output, true)).flatten(), h_n.flatten()});
      },
      {input({3, 4, 2}), input({2, 3, 3})});

  nn::RNN rnn(nn::RNNOptions(2, 3).num_layers(2));
  rnn->to(torch::kDouble);
  check_gradients(
      [&](const std::vector<Tensor>& xs) {
        auto [output, h_n] = rnn->forward(xs[0], xs[1]);
        return torch::cat({output.flatten(), h_n.flatten()});
      },
      {input({3, 2, 2}), input({2, 2, 3})});

  nn::LSTMCell lstm_cell(2, 3);
  nn::GRUCell gru_cell(2, 3);
  lstm_cell->to(torch::kDouble);
  gru_cell->to(torch::kDouble);
  check_gradients(
      [&](const std::vector<Tensor>& xs) {
        auto [h, c] = lstm_cell->forward(xs[0], std::make_tuple(xs[1], xs[2]));
        return torch::cat({h.flatten(), c.flatten(), gru_cell->forward(xs[0], xs[1]).flatten()});
      },
      {input({2, 2}), input({2, 3}), input({2, 3}) * 0.5});
}

TEST_CASE("recurrent layers: parameter names, shapes, initialisation, printing as LibTorch", "[recurrent]") {
  nn::LSTM lstm(nn::LSTMOptions(2, 3).num_layers(2).bidirectional(true));
  std::vector<std::string> names;
  for (const auto& item : lstm->named_parameters()) names.push_back(item.key());
  CHECK(names == std::vector<std::string>{"weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0",
                                          "weight_ih_l0_reverse", "weight_hh_l0_reverse", "bias_ih_l0_reverse",
                                          "bias_hh_l0_reverse", "weight_ih_l1", "weight_hh_l1", "bias_ih_l1",
                                          "bias_hh_l1", "weight_ih_l1_reverse", "weight_hh_l1_reverse",
                                          "bias_ih_l1_reverse", "bias_hh_l1_reverse"});
  CHECK(shape(lstm->named_parameters()["weight_ih_l1"]) == S{12, 6});
  CHECK(shape(lstm->named_parameters()["weight_hh_l1_reverse"]) == S{12, 3});
  CHECK(lstm->all_weights().size() == 16);
  CHECK(lstm->all_weights()[8].is_same(lstm->named_parameters()["weight_ih_l1"]));
  lstm->flatten_parameters();
  // U(-1/sqrt(hidden_size), 1/sqrt(hidden_size))
  for (const Tensor& p : lstm->parameters()) CHECK(p.abs().max().item<double>() <= 1 / std::sqrt(3.0));

  nn::LSTM projected(nn::LSTMOptions(2, 3).proj_size(2));
  names.clear();
  for (const auto& item : projected->named_parameters()) names.push_back(item.key() + printed(item.value().sizes()));
  CHECK(names == std::vector<std::string>{"weight_ih_l0[12, 2]", "weight_hh_l0[12, 2]", "bias_ih_l0[12]",
                                          "bias_hh_l0[12]", "weight_hr_l0[2, 3]"});
  nn::RNN no_bias(nn::RNNOptions(3, 5).bias(false).bidirectional(true));
  CHECK(no_bias->parameters().size() == 4);
  nn::RNNCell cell(2, 3);
  names.clear();
  for (const auto& item : cell->named_parameters()) names.push_back(item.key());
  CHECK(names == std::vector<std::string>{"weight_ih", "weight_hh", "bias_ih", "bias_hh"});

  CHECK(printed(*nn::LSTM(nn::LSTMOptions(4, 8).num_layers(2))) ==
        "torch::nn::LSTM(input_size=4, hidden_size=8, num_layers=2, bias=true, batch_first=false, dropout=0, "
        "bidirectional=false)");
  CHECK(printed(*nn::RNN(nn::RNNOptions(3, 5).nonlinearity(torch::kReLU).bidirectional(true).dropout(0.5).bias(false))) ==
        "torch::nn::RNN(input_size=3, hidden_size=5, num_layers=1, bias=false, batch_first=false, dropout=0.5, "
        "bidirectional=true)");
  CHECK(printed(*nn::GRU(nn::GRUOptions(3, 5).batch_first(true).num_layers(3))) ==
        "torch::nn::GRU(input_size=3, hidden_size=5, num_layers=3, bias=true, batch_first=true, dropout=0, "
        "bidirectional=false)");
  CHECK(printed(*nn::LSTM(nn::LSTMOptions(3, 5).proj_size(2))) ==
        "torch::nn::LSTM(input_size=3, hidden_size=5, num_layers=1, bias=true, batch_first=false, dropout=0, "
        "bidirectional=false, proj_size=2)");
  CHECK(printed(*nn::RNNCell(3, 5)) == "torch::nn::RNNCell(3, 5)");
  CHECK(printed(*nn::RNNCell(nn::RNNCellOptions(3, 5).nonlinearity(torch::kReLU).bias(false))) ==
        "torch::nn::RNNCell(3, 5, bias=false, nonlinearity=kReLU)");
  CHECK(printed(*nn::LSTMCell(3, 5)) == "torch::nn::LSTMCell(3, 5)");
  CHECK(printed(*nn::GRUCell(nn::GRUCellOptions(3, 5).bias(false))) == "torch::nn::GRUCell(3, 5, bias=false)");
}

TEST_CASE("recurrent layers: clone, save and load, dropout between layers", "[recurrent]") {
  nn::GRU gru(nn::GRUOptions(3, 4).num_layers(2));
  auto copy = std::dynamic_pointer_cast<nn::GRUImpl>(gru->clone());
  const Tensor x = input({5, 2, 3});
  CHECK(all_close(std::get<0>(copy->forward(x)), std::get<0>(gru->forward(x)), 0));
  CHECK(!copy->parameters()[0].is_same(gru->parameters()[0]));

  std::stringstream archive;
  torch::save(gru, archive);
  nn::GRU loaded(nn::GRUOptions(3, 4).num_layers(2));
  torch::load(loaded, archive);
  CHECK(all_close(std::get<1>(loaded->forward(x)), std::get<1>(gru->forward(x)), 0));

  // Dropout acts between layers in training only.
  nn::LSTM with_dropout(nn::LSTMOptions(3, 4).num_layers(2).dropout(1.0));
  nn::LSTM without(nn::LSTMOptions(3, 4).num_layers(2));
  {
    torch::NoGradGuard no_grad;
    for (size_t i = 0; i < without->parameters().size(); ++i) without->parameters()[i].copy_(with_dropout->parameters()[i]);
  }
  with_dropout->eval();
  CHECK(all_close(std::get<0>(with_dropout->forward(x)), std::get<0>(without->forward(x))));
  with_dropout->train();
  // p = 1 zeroes layer 0's output: layer 1 sees zeros at every step, whatever x is.
  CHECK(all_close(std::get<0>(with_dropout->forward(x)), std::get<0>(with_dropout->forward(x * 2))));
}

TEST_CASE("recurrent layers and packing refuse bad input with LibTorch's errors", "[recurrent][errors]") {
  nn::GRU gru(nn::GRUOptions(2, 3));
  CHECK_THROWS_WITH(gru->forward(torch::ones({4, 2})), "input must have 3 dimensions, got 2");
  CHECK_THROWS_WITH(gru->forward(torch::ones({4, 1, 1, 2})), "input must have 3 dimensions, got 4");
  CHECK_THROWS_WITH(gru->forward(torch::ones({4, 1, 3})),
                    "input.size(-1) must be equal to input_size. Expected 2, got 3");
  CHECK_THROWS_WITH(gru->forward(torch::ones({4, 1, 2}), torch::zeros({1, 3})), "Expected hidden size 1 1 3, got [1, 3]");
  CHECK_THROWS_WITH(gru->forward(torch::ones({4, 2, 2}), torch::zeros({2, 2, 3})),
                    "Expected hidden size 1 2 3, got [2, 2, 3]");
  nn::LSTM lstm(nn::LSTMOptions(2, 3));
  CHECK_THROWS_WITH(lstm->forward(torch::ones({4, 2, 2}), std::make_tuple(torch::zeros({1, 2, 3}), torch::zeros({1, 2, 4}))),
                    "Expected hidden[1] size 1 2 3, got [1, 2, 4]");
  CHECK_THROWS_WITH(lstm->forward(torch::ones({4, 2, 2}), std::make_tuple(torch::zeros({1, 3, 3}), torch::zeros({1, 2, 3}))),
                    "Expected hidden[0] size 1 2 3, got [1, 3, 3]");
  const std::string proj_error = "proj_size has to be a positive integer, smaller than hidden_size or zero to disable projections";
  CHECK_THROWS_WITH(nn::LSTM(nn::LSTMOptions(2, 3).proj_size(3)), proj_error);
  CHECK_THROWS_WITH(nn::LSTM(nn::LSTMOptions(2, 3).proj_size(-1)), proj_error);
  CHECK_THROWS_WITH(nn::RNN(nn::RNNOptions(2, 0)), proj_error);
  CHECK_THROWS_WITH(nn::LSTM(nn::LSTMOptions(2, 3).dropout(1.5)),
                    "dropout should be a number in range [0, 1] representing the probability of an element being zeroed");

  nn::RNNCell cell(2, 3);
  CHECK_THROWS_WITH(cell->forward(torch::ones({2})), "Dimension out of range (expected to be in range of [-1, 0], but got 1)");
  CHECK_THROWS_WITH(cell->forward(torch::ones({5, 3})), "input has inconsistent input_size: got 3 expected 2");
  CHECK_THROWS_WITH(cell->forward(torch::ones({5, 2}), torch::zeros({4, 3})), "Input batch size 5 doesn't match hidden batch size 4");
  CHECK_THROWS_WITH(cell->forward(torch::ones({5, 2}), torch::zeros({5, 4})), "hidden has inconsistent hidden_size: got 4, expected 3");
  nn::LSTMCell lstm_cell(2, 3);
  CHECK_THROWS_WITH(lstm_cell->forward(torch::ones({5, 2}), std::make_tuple(torch::zeros({5, 3}), torch::zeros({5, 4}))),
                    "hidden[1] has inconsistent hidden_size: got 4, expected 3");

  const Tensor x = torch::arange(12.).reshape({4, 3});
  CHECK_THROWS_WITH(rnn_utils::pack_padded_sequence(x, torch::tensor({2, 3, 1})),
                    "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass "
                    "`enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this requirement "
                    "if you do not need ONNX exportability.");
  CHECK_THROWS_WITH(rnn_utils::pack_padded_sequence(x, torch::tensor({4, 3, 0})),
                    "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0");
  CHECK_THROWS_WITH(rnn_utils::pack_padded_sequence(x, torch::tensor({4, 3})),
                    "Expected `len(lengths)` to be equal to batch_size, but got 2 (batch_size=3)");
  CHECK_THROWS_WITH(rnn_utils::pack_padded_sequence(x, torch::tensor({{4, 3, 1}})),
                    "'lengths' argument should be a 1D CPU int64 tensor, but got 2D cpu Long tensor");
  CHECK_THROWS_WITH(rnn_utils::pack_padded_sequence(x, torch::tensor({4, 3, 1}), true),
                    "Expected `len(lengths)` to be equal to batch_size, but got 3 (batch_size=4)");
  CHECK_THROWS_WITH(rnn_utils::pack_sequence({torch::arange(3.), torch::arange(5.)}),
                    Catch::Contains("`lengths` array must be sorted in decreasing order"));
  CHECK_THROWS_WITH(rnn_utils::pack_sequence({}), "received an empty list of sequences");
  auto packed = rnn_utils::pack_padded_sequence(x, torch::tensor({3, 2, 1}));
  CHECK_THROWS_WITH(rnn_utils::pad_packed_sequence(packed, true, -1, 2),
                    "Expected total_length to be at least the length of the longest sequence in input, but got "
                    "total_length=2 and max sequence length being 3");
}
