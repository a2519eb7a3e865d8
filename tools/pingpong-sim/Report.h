//===- Report.h - pingpong-sim: the text report, JSON and timeline --------===//
#ifndef PINGPONG_SIM_REPORT_H
#define PINGPONG_SIM_REPORT_H

#include "Sim.h"

#include <string>

namespace ppsim {

// The text report of a run on stdout.
void printReport(const SimResult &R, const Program &P);
// The results as JSON (schema_version 2: snake_case keys).
void writeJson(const SimResult &R, const std::string &Path);
// The timeline as SVG (Full: the whole run, else 4 steady-state iterations),
// and a PNG beside it if rsvg-convert or ImageMagick convert works.
void writeSvg(const SimResult &R, const std::string &Path, bool Full);

} // namespace ppsim

#endif
