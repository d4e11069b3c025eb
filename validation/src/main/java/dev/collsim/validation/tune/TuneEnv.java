package dev.collsim.validation.tune;

import dev.collsim.nccl.Algorithm;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
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
 * The environment settings that achieve the advice where one setting suffices: NCCL_ALGO and NCCL_PROTO in NCCL's
 * per-function syntax ({@code func:list;func:list}, NCCL 2.24+, shared/nccl-model.md section 2.5), e.g.
 * {@code NCCL_ALGO=allreduce:ring}, and NCCL_MAX_NCHANNELS for channel advice. A collective gets NCCL_ALGO (or
 * NCCL_PROTO) only when collsim's best algorithm (or protocol) is the same at every swept size and a change of
 * algorithm or protocol is advised somewhere, and only when re-running NCCL's selection under the settings makes NCCL
 * pick collsim's best at every swept size of it (checked, not assumed).
 *
 * <p>NCCL_MAX_NCHANNELS is written when every channel advice names the same count k (never for NVLS, whose channels
 * it does not limit) and re-predicting every swept point of every collective under NCCL_MAX_NCHANNELS=k (with the
 * NCCL_ALGO/NCCL_PROTO written) gains more than the band wherever channels are advised and slows no point. The
 * plugin's count cannot exceed comm.nChannels, so advice never asks for more channels and NCCL_MIN_NCHANNELS is never
 * needed; raising comm.nChannels above NCCL's default is not searched (no measurement checks the model there).
 * These settings apply to every size, unlike the tuner file's ranges.
 *
 * @param settings variable name to value, empty when no single setting suffices
 * @param notes    per collective or for channels, why no setting was written (in words)
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
            if (pts.isEmpty() || pts.stream().noneMatch(p -> p.recommended()
                    && (p.bestAlgorithm() != p.ncclAlgorithm() || p.bestProtocol() != p.ncclProtocol()))) {
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
        channels(r, prepare, pp, out, notes);
        return new TuneEnv(out, notes);
    }

    /** Adds NCCL_MAX_NCHANNELS to out when it achieves the channel advice (class comment), else a note. */
    private static void channels(TuneResult r, Function<NcclSettings, PreparedCommunicator> prepare,
            PerformanceParameters pp, Map<String, String> out, List<String> notes) {
        List<TunePoint> advised = r.points().stream().filter(p -> p.recommended() && p.forcedChannels() > 0).toList();
        if (advised.isEmpty()) {
            return;
        }
        List<Integer> counts = advised.stream().map(TunePoint::forcedChannels).distinct().sorted().toList();
        if (counts.size() > 1) {
            notes.add("channels: the advised count changes with size " + counts + "; use the tuner file");
            return;
        }
        if (advised.stream().anyMatch(p -> p.bestAlgorithm() == Algorithm.NVLS
                || p.bestAlgorithm() == Algorithm.NVLS_TREE)) {
            notes.add("channels: NCCL_MAX_NCHANNELS does not limit NVLS channels; use the tuner file");
            return;
        }
        Map<String, String> env = new LinkedHashMap<>(out);
        env.put("NCCL_MAX_NCHANNELS", Integer.toString(counts.get(0)));
        PreparedCommunicator comm = prepare.apply(NcclSettings.parse(env));
        for (TunePoint p : r.points()) {
            double band = r.band().percentAt(p.sizeBytes()) / 100;
            double t = comm.call(p.collective(), p.sizeBytes(), DataType.FLOAT, RedOp.SUM).timeUs(pp);
            boolean wanted = p.recommended() && p.forcedChannels() > 0;
            if (t > p.ncclUs() * (1 + 1e-9) || wanted && !(t < p.ncclUs() * (1 - band))) {
                notes.add(String.format(Locale.ROOT, "channels: NCCL_MAX_NCHANNELS=%d applies to every size and "
                        + "would give %s at %d B %.1f us against NCCL's own %.1f us; use the tuner file",
                        counts.get(0), p.collective().ncclName(), p.sizeBytes(), t, p.ncclUs()));
                return;
            }
        }
        out.put("NCCL_MAX_NCHANNELS", Integer.toString(counts.get(0)));
    }

    private static boolean reproduces(List<TunePoint> pts, PreparedCommunicator comm, PerformanceParameters pp) {
        List<TunePoint> again = Tuner.points(comm, pp, pts.get(0).band(), List.of(pts.get(0).collective()),
                pts.stream().map(TunePoint::sizeBytes).toList(), Evidence.NONE);
        for (int i = 0; i < pts.size(); i++) {
            TunePoint p = pts.get(i);
            TunePoint q = again.get(i);
            if (q.ncclAlgorithm() != p.bestAlgorithm() || q.ncclProtocol() != p.bestProtocol()) {
                return false;
            }
        }
        return true;
    }
}
