package dev.collsim.reports.whatif;

import dev.collsim.io.InputException;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.InvalidRequestException;
import dev.collsim.simulator.NcclPredictor;
import dev.collsim.simulator.PreparedCommunicator;
import dev.collsim.simulator.perf.PerformanceParameters;
import dev.collsim.topology.Topology;
import dev.collsim.validation.calibration.CalibrationProfile;
import dev.collsim.validation.calibration.ProfileClass;
import dev.collsim.validation.calibration.ProfileSelector;
import dev.collsim.validation.tune.Evidence;
import dev.collsim.validation.tune.TuneResult;
import dev.collsim.validation.tune.TuneTable;
import dev.collsim.validation.tune.Tuner;
import dev.collsim.validation.tune.TunerConfigFile;
import dev.collsim.validation.tune.TuningBand;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The report's "What to change in NCCL's settings for this cluster" section: {@code collsim tune}'s table and tuner
 * file ({@link Tuner}, {@link TuneTable}, {@link TunerConfigFile}) for the base variant, every GPU, sizes 8 B..8 GiB
 * by factors of 2, with the variant's parameters and the band its calibration legend prints: the class band of the
 * shipped profile or bare model ({@link ProfileSelector}), or a named profile's p90 ({@link TuningBand#forCalibration}).
 *
 * @param note   what was tuned and the band, in words; empty when the section was not computed
 * @param rows   the table, cells in {@link TuneTable#COLUMNS} order
 * @param config the tuner plugin file's lines
 */
public record TuningSection(String note, List<List<String>> rows, List<String> config) {

    /** Not computed (a backend other than the analytical one, or a report made before the section existed). */
    public static final TuningSection NONE = new TuningSection("", List.of(), List.of());

    /** Copies. */
    public TuningSection {
        rows = rows.stream().map(List::copyOf).toList();
        config = List.copyOf(config);
    }

    /**
     * @param base           the base variant
     * @param settings       its NCCL settings
     * @param calibrationFile its calibration profile path, or null
     * @return the section; {@link #NONE} when the base variant is not timed by NCCL's model (flow backends)
     */
    static TuningSection of(ResolvedVariant base, NcclSettings settings, String calibrationFile) {
        if (!(base.predictor() instanceof NcclPredictor np) || base.topology().gpus().size() < 2) {
            return NONE;
        }
        PerformanceParameters pp = np.parameters();
        // one band: the class band the report's calibration legend prints (shipped profile or bare model), as tune
        TuningBand band = classBand(base.topology(), calibrationFile).orElse(TuningBand.UNCALIBRATED);
        if (calibrationFile != null && !"none".equals(calibrationFile)) {
            try {
                band = TuningBand.forCalibration(CalibrationProfile.read(Path.of(calibrationFile)));
            } catch (InputException e) {
                band = TuningBand.UNCALIBRATED; // a parameters file, not a fit: no residuals to take a band from
            }
        }
        PreparedCommunicator comm = np.prepare(base.topology(), base.topology().gpus(), settings);
        List<Long> sizes = new ArrayList<>();
        for (long s = 8; s <= (8L << 30); s *= 2) {
            sizes.add(s);
        }
        List<Collective> colls = Tuner.TUNABLE.stream().filter(c -> eligible(comm, c)).toList();
        TuneResult r = Tuner.sweep(comm, pp, band, colls, sizes, Evidence.NONE);
        String note = String.format(Locale.ROOT, "%s (%s), %d ranks on %d NCCL node(s), NCCL %s model%s; band %s "
                + "(%s). Gains are collsim's predictions; a change is advised only where the gain exceeds the band. "
                + "collsim tune writes the same advice with measured evidence.", base.name(), base.topology().name(),
                r.nRanks(), r.nNodes(), np.version().tables().text(), np.version().rulesNote(), band.text(), band.source());
        List<String> lineNotes = TuneTable.notes(r);
        if (!lineNotes.isEmpty()) {
            note += " " + String.join(". ", lineNotes) + ".";
        }
        return new TuningSection(note, TuneTable.rows(r), TunerConfigFile.lines(r, List.of("collsim report, variant "
                + base.name(), "channels 0 = NCCL's own count; NCCL's example plugin runs a call that matches no line "
                + "(other sizes, collectives or communicators) on ONE channel (plugin.c, NCCL 2.27-2.30)")));
    }

    /**
     * @return the band of the cluster's class ({@link ProfileSelector}): the shipped profile's, or with {@code none}
     *         the bare model's; empty where the class has none (the uncalibrated band is used)
     */
    private static Optional<TuningBand> classBand(Topology t, String calibration) {
        ProfileSelector.Choice c = "none".equals(calibration) ? ProfileSelector.bare(ProfileClass.of(t))
                : ProfileSelector.select(t);
        return c.band().filter(b -> b.belowMiBPercent() > 0 && b.atLeastMiBPercent() > 0)
                .map(b -> TuningBand.ofClass(b, "the class band of " + c.profileClass().key()
                        + ", as the calibration legend prints it"));
    }

    /** @return false when the variant's NCCL settings leave NCCL no algorithm for c (NCCL would fail the call) */
    private static boolean eligible(PreparedCommunicator comm, Collective c) {
        try {
            comm.call(c, 8, DataType.FLOAT, RedOp.SUM);
            return true;
        } catch (InvalidRequestException e) {
            return false;
        }
    }

    /**
     * @param h the page, appended to: a heading, the note, the table and the tuner file, or, when no row advises a
     *          change, a line saying to keep NCCL's choice (nothing at all when NONE)
     */
    void html(StringBuilder h) {
        if (note.isEmpty()) {
            return;
        }
        h.append("<h2>What to change in NCCL's settings for this cluster</h2>\n<p>").append(esc(note)).append("</p>\n");
        h.append("<table><tr>");
        for (int i = 0; i < TuneTable.COLUMNS.size(); i++) {
            h.append("<th").append(HtmlReport.headerAlign(headerAndRows(), i)).append('>')
                    .append(esc(TuneTable.COLUMNS.get(i))).append("</th>");
        }
        h.append("</tr>\n");
        for (List<String> row : rows) {
            h.append("<tr>");
            row.forEach(c -> h.append("<td").append(HtmlReport.align(c)).append('>').append(esc(c)).append("</td>"));
            h.append("</tr>\n");
        }
        h.append("</table>\n");
        if (config.stream().allMatch(l -> l.isBlank() || l.startsWith("#"))) {
            h.append("<p class=keep>Nothing to change: keep NCCL's choice for every collective and size above (no"
                    + " predicted gain exceeds the band), so no tuner plugin file is needed.</p>\n");
            return;
        }
        h.append("<p>NCCL example tuner plugin file (NCCL_TUNER_CONFIG_FILE), the changes above:</p>\n<pre>");
        config.forEach(l -> h.append(esc(l)).append('\n'));
        h.append("</pre>\n");
    }

    private List<List<String>> headerAndRows() {
        List<List<String>> all = new ArrayList<>();
        all.add(TuneTable.COLUMNS);
        all.addAll(rows);
        return all;
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
