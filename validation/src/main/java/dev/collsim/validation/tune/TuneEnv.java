package dev.collsim.validation.tune;

import dev.collsim.nccl.Collective;
import dev.collsim.nccl.env.NcclSettings;
import dev.collsim.simulator.PreparedCommunicator;
import dev.collsim.simulator.perf.PerformanceParameters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The environment settings that achieve the advice where one setting per collective suffices: NCCL_ALGO and
 * NCCL_PROTO in NCCL's per-function syntax ({@code func:list;func:list}, NCCL 2.24+, shared/nccl-model.md section
 * 2.5), e.g. {@code NCCL_ALGO=allreduce:ring}. A collective gets a setting only when collsim's best algorithm (or
 * protocol) is the same at every swept size and a change is advised somewhere, and only when re-running NCCL's
 * selection under the settings makes NCCL pick collsim's best at every swept size of it (checked, not assumed).
 * These settings apply to every size, unlike the tuner file's ranges. Channel counts are not tuned (NCCL_MIN/
 * MAX_NCHANNELS are never written).
 *
 * @param settings variable name to value, empty when no single setting suffices
 * @param notes    per collective, why it got no setting (in words)
 */
public record TuneEnv(Map<String, String> settings, List<String> notes) {

    /** Copies. */
    public TuneEnv {
        settings = Map.copyOf(settings);
        notes = List.copyOf(notes);
    }

    /**
     * @param r       the tuning result (points of every collective swept)
     * @param prepare prepares the same communicator under other NCCL settings (the check)
     * @param pp      performance parameters the result was found with
     * @return the settings
     */
    public static TuneEnv of(TuneResult r, Function<NcclSettings, PreparedCommunicator> prepare,
            PerformanceParameters pp) {
        Map<String, String> algo = new LinkedHashMap<>();
        Map<String, String> proto = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        for (Collective c : Tuner.TUNABLE) {
            List<TunePoint> pts = r.points().stream().filter(p -> p.collective() == c).toList();
            if (pts.isEmpty() || pts.stream().noneMatch(TunePoint::recommended)) {
                continue;
            }
            boolean oneAlgo = pts.stream().map(TunePoint::bestAlgorithm).distinct().count() == 1;
            boolean oneProto = pts.stream().map(TunePoint::bestProtocol).distinct().count() == 1;
            String name = TunerConfigFile.COLLECTIVES.get(c);
            if (!oneAlgo && !oneProto) {
                notes.add(c.ncclName() + ": the best algorithm and protocol both change with size; use the tuner file");
                continue;
            }
            Map<String, String> env = new LinkedHashMap<>();
            if (oneAlgo) {
                env.put("NCCL_ALGO", name + ":" + pts.get(0).bestAlgorithm().ncclName().toLowerCase(Locale.ROOT));
            }
            if (oneProto) {
                env.put("NCCL_PROTO", name + ":" + pts.get(0).bestProtocol().ncclName().toLowerCase(Locale.ROOT));
            }
            if (reproduces(pts, prepare.apply(NcclSettings.parse(env)), pp)) {
                env.forEach((k, v) -> (k.equals("NCCL_ALGO") ? algo : proto).put(c.ncclName(), v));
            } else {
                notes.add(c.ncclName() + ": " + env + " would not make NCCL pick collsim's best at every size; use "
                        + "the tuner file");
            }
        }
        Map<String, String> out = new LinkedHashMap<>();
        if (!algo.isEmpty()) {
            out.put("NCCL_ALGO", String.join(";", algo.values()));
        }
        if (!proto.isEmpty()) {
            out.put("NCCL_PROTO", String.join(";", proto.values()));
        }
        return new TuneEnv(out, notes);
    }

    private static boolean reproduces(List<TunePoint> pts, PreparedCommunicator comm, PerformanceParameters pp) {
        TuneResult again = Tuner.sweep(comm, pp, pts.get(0).band(), List.of(pts.get(0).collective()),
                pts.stream().map(TunePoint::sizeBytes).toList(), Evidence.NONE);
        for (int i = 0; i < pts.size(); i++) {
            TunePoint p = pts.get(i);
            TunePoint q = again.points().get(i);
            if (q.ncclAlgorithm() != p.bestAlgorithm() || q.ncclProtocol() != p.bestProtocol()) {
                return false;
            }
        }
        return true;
    }
}
