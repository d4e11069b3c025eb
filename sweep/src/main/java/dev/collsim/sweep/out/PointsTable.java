package dev.collsim.sweep.out;

import dev.collsim.reports.io.CsvTable;
import dev.collsim.sweep.point.PointResult;
import dev.collsim.sweep.spec.DesignSpace;
import dev.collsim.sweep.spec.GridAxis;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns of the points table, shared by the CSV and Parquet files: the point, its design (label, then one column
 * per grid axis named after the key), the workload, the results and the cost (column {@code cost_CUR}, e.g.
 * {@code cost_USD}). Stateless.
 */
public final class PointsTable {

    /** Result columns after the axis columns, in order. */
    static final List<String> RESULT_COLUMNS = List.of("workload", "kind", "status", "reason", "gpus", "hosts",
            "size_bytes", "time_us", "busbw_gbs", "algorithm", "step_ms", "tokens_per_s", "memory_gib", "bottleneck",
            "nic_ports", "switch_ports", "cables", "capital", "running", "cost", "power_kw");

    private PointsTable() {
    }

    /** @return every column name, e.g. {@code point, design, label, hosts, fabric, workload, ...} */
    public static List<String> columns(DesignSpace space) {
        List<String> c = new ArrayList<>(List.of("point", "design", "label"));
        for (GridAxis a : space.axes()) {
            c.add("grid_" + a.key().replace('-', '_'));
        }
        for (String r : RESULT_COLUMNS) {
            c.add(r.equals("capital") || r.equals("running") || r.equals("cost")
                    ? r + "_" + space.cost().currency() : r);
        }
        return c;
    }

    /** @return the row's values in {@link #columns} order (Long, Integer, Double or String) */
    public static List<Object> values(PointResult r) {
        List<Object> v = new ArrayList<>(List.of(r.point(), r.design(), r.label()));
        v.addAll(r.axes());
        v.addAll(List.of(r.workload(), r.kind(), r.status(), r.reason(), r.gpus(), r.hosts(), r.sizeBytes(),
                r.timeUs(), r.busBw(), r.algorithm(), r.stepMs(), r.tokensPerS(), r.memoryGib(), r.bottleneck(),
                r.nicPorts(), r.switchPorts(), r.cables(), r.capital(), r.running(), r.cost(), r.powerKw()));
        return v;
    }

    /** @return the CSV text (RFC 4180, numbers to 9 significant digits, NaN as an empty cell) */
    public static String csv(DesignSpace space, List<PointResult> rows) {
        StringBuilder b = new StringBuilder(String.join(",", columns(space))).append("\r\n");
        for (PointResult r : rows) {
            List<Object> v = values(r);
            for (int k = 0; k < v.size(); k++) {
                b.append(k == 0 ? "" : ",").append(CsvTable.cell(v.get(k)));
            }
            b.append("\r\n");
        }
        return b.toString();
    }
}
