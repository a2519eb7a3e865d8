//===- Modes.cpp - the mode registry --------------------------------------===//
#include "pingpong/Modes/Modes.h"

#include <algorithm>
#include <iterator>

using namespace llvm;
namespace pingpong {

static constexpr ModeInfo Rows[] = {
#define PINGPONG_MODE(Id, Name, Waves, DMA, AutoWaves, AutoMin, AutoMax,       \
                      ByRegisters, Description)                                \
  {Mode::Id, Name,    Waves,       DMA,                                        \
   AutoWaves, AutoMin, AutoMax, ByRegisters, Description},
#include "pingpong/Modes/Modes.def"
};

// Rows[i] describes Mode(i): the enum and the table come from one list.
static constexpr unsigned NumModes = 0
#define PINGPONG_MODE(...) +1
#include "pingpong/Modes/Modes.def"
    ;
static_assert(std::size(Rows) == NumModes, "a mode without its row");

ArrayRef<ModeInfo> allModes() { return Rows; }

const ModeInfo &modeInfo(Mode M) { return Rows[unsigned(M)]; }

const char *modeName(Mode M) { return modeInfo(M).Name; }

std::optional<Mode> parseMode(StringRef S) {
  for (const ModeInfo &I : Rows)
    if (S == I.Name)
      return I.M;
  return std::nullopt;
}

std::string validModes() {
  std::string S = "expected one of: ";
  for (const ModeInfo &I : Rows)
    S += std::string(I.M == Mode::Auto ? "" : ", ") + I.Name;
  return S;
}

std::string wavesText(unsigned Waves) {
  std::string S;
  for (auto [Bit, N] : {std::pair(Waves4, "4"), std::pair(Waves8, "8")})
    if (Waves & Bit)
      S += (S.empty() ? "" : " or ") + std::string(N);
  return S;
}

static unsigned waveBit(unsigned Waves) {
  return Waves == 4 ? Waves4 : Waves == 8 ? Waves8 : 0;
}

std::string forcedModeConflict(Mode M, unsigned Waves, bool HasDMA) {
  const ModeInfo &I = modeInfo(M);
  if (Waves && I.Waves && !(I.Waves & waveBit(Waves)))
    return std::string(I.Name) + " needs " + wavesText(I.Waves) +
           " waves per workgroup; this loop has " + std::to_string(Waves);
  if (HasDMA && I.DMA == DMAUse::Never)
    return std::string(I.Name) + " does not place LDS DMA, and this loop "
           "has some (the async modes do)";
  if (!HasDMA && I.DMA == DMAUse::Needs)
    return std::string(I.Name) + " needs LDS DMA in the loop";
  return "";
}

std::vector<Mode> autoGemmModes(unsigned Waves, uint64_t TileBits) {
  // The mode for the larger tiles first; rows in Modes.def order otherwise.
  std::vector<const ModeInfo *> Take;
  for (const ModeInfo &I : Rows)
    if (I.AutoWaves && I.AutoWaves == Waves && TileBits >= I.AutoMinBits &&
        TileBits <= I.AutoMaxBits)
      Take.insert(std::find_if(Take.begin(), Take.end(),
                               [&](const ModeInfo *T) {
                                 return T->AutoMinBits < I.AutoMinBits;
                               }),
                  &I);
  std::vector<Mode> Modes;
  for (const ModeInfo *I : Take)
    Modes.push_back(I->M);
  return Modes;
}

std::optional<std::pair<uint64_t, Mode>> autoMinTile(unsigned Waves) {
  std::optional<std::pair<uint64_t, Mode>> Min;
  for (const ModeInfo &I : Rows)
    if (I.AutoWaves && I.AutoWaves == Waves &&
        (!Min || I.AutoMinBits < Min->first))
      Min = {I.AutoMinBits, I.M};
  return Min;
}

} // namespace pingpong
