package dev.collsim.reports.whatif;

import java.util.ArrayList;
import java.util.List;

/** The rows one piece of a report adds, in its order; {@link #add} appends another piece's. */
final class ReportPart {
    final List<ReportData.SweepRow> sweeps = new ArrayList<>();
    final List<ReportData.MeasuredRow> measured = new ArrayList<>();
    final List<ReportData.PlanRow> plans = new ArrayList<>();
    final List<ReportData.PlanCommRow> comms = new ArrayList<>();
    final List<ReportData.ScalingRow> scaling = new ArrayList<>();
    final List<ReportData.TargetRow> targets = new ArrayList<>();
    final List<ReportData.AlgoCellRow> cells = new ArrayList<>();
    TuningSection tuning = TuningSection.NONE;

    void add(ReportPart p) {
        sweeps.addAll(p.sweeps);
        measured.addAll(p.measured);
        plans.addAll(p.plans);
        comms.addAll(p.comms);
        scaling.addAll(p.scaling);
        targets.addAll(p.targets);
        cells.addAll(p.cells);
        if (p.tuning != TuningSection.NONE) {
            tuning = p.tuning;
        }
    }
}
