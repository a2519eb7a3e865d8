//===- Waitcnt.h - moved to pingpong/Sync/Waitcnt.h -----------*- C++ -*-===//
// The s_waitcnt encoding is part of the sync-rules library (lib/Sync); this
// header stays for the code that includes it by its old name.
#ifndef PINGPONG_ISA_WAITCNT_H
#define PINGPONG_ISA_WAITCNT_H
#include "pingpong/Sync/Waitcnt.h"
#endif
