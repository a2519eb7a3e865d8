//===- Report.h - pingpong-sim: the views of the model's results ----------===//
//
// What the tool prints and writes from the library's results (lib/Sim), as
// llvm-mca's views sit beside libLLVMMCA: run's report, JSON and timeline
// (Report.cpp), verify's text (VerifyReport.cpp), addresses' text
// (AddressReport.cpp). Each run* function returns the command's exit code.
//
//===----------------------------------------------------------------------===//
#ifndef PINGPONG_SIM_TOOL_REPORT_H
#define PINGPONG_SIM_TOOL_REPORT_H

#include "pingpong/Sim/Sim.h"

#include <string>
#include <vector>

namespace ppsim {

// The text report of a run on stdout.
void printReport(const SimResult &R, const Program &P);
// The results as JSON (schema_version 2: snake_case keys).
void writeJson(const SimResult &R, const std::string &Path);
// The timeline as SVG (Full: the whole run, else 4 steady-state iterations),
// and a PNG beside it if rsvg-convert or ImageMagick convert works.
void writeSvg(const SimResult &R, const std::string &Path, bool Full);

// `run`: simulates P at the clock Rule picks, then the report (stdout), and
// the JSON and the timeline where their paths are not empty.
int runModel(const Program &P, const SimOptions &SO, ClockRule Rule, double GivenGHz,
             const std::string &Json, const std::string &Svg, bool Full);

// `verify`: simulates P with SO (SimOptions::Trace), checks the traces and
// prints the verdict.
int runVerify(const Program &P, const SimOptions &SO);

// `addresses`: runs every file (options as verify's, with TraceLanes), then
// prints the summary (one file; Dump: every access) or the comparison (two).
// Returns 0 equal / summary, 1 a difference or bad input, 2 an LDS address
// unknown, 4 the loop did not run as asked.
int runAddresses(const ParseOptions &PO, const SimOptions &SO, const std::vector<std::string> &Files, bool Dump);

} // namespace ppsim

#endif
