//===- Roles.cpp - role and operand names ---------------------------------===//
#include "pingpong/Modes/Roles.h"

namespace pingpong {

const char *roleName(Role R) {
  switch (R) {
  case Role::Other: return "other";
  case Role::Dot: return "dot";
  case Role::LocalRead: return "local-read";
  case Role::LocalWrite: return "local-write";
  case Role::GlobalLoad: return "global-load";
  case Role::OperandPrep: return "operand-prep";
  case Role::Sync: return "sync";
  case Role::AsyncCopy: return "async-copy";
  case Role::DirectLoad: return "direct-load";
  case Role::InterDot: return "inter-dot";
  case Role::SideLoad: return "side-load";
  case Role::AccPrep: return "acc-prep";
  case Role::ExchangeWrite: return "exchange-write";
  case Role::ExchangeRead: return "exchange-read";
  }
  return "?";
}

const char *operandName(Operand O) {
  switch (O) {
  case Operand::None: return "-";
  case Operand::A: return "A";
  case Operand::B: return "B";
  case Operand::ScaleA: return "A-scale";
  case Operand::ScaleB: return "B-scale";
  }
  return "?";
}

} // namespace pingpong
