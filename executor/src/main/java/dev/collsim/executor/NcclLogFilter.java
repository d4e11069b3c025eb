package dev.collsim.executor;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Keeps the lines of NCCL's {@code NCCL_DEBUG=INFO} output that describe what NCCL built: channels, rings,
 * trees, NVLS/CollNet, pattern and bandwidth of each graph, the algorithm/protocol enable matrix, tuner and
 * version lines. Line shapes from NCCL 2.28 {@code src/init.cc}, {@code src/graph/search.cc},
 * {@code src/graph/connect.cc}, {@code src/graph/tuning.cc} (e.g. {@code Channel 00/24 : 0 1 2 3},
 * {@code Trees [0] 1/-1/-1->0->-1}, {@code Pattern 4, crossNic 0, nChannels 16, bw 40.000000/40.000000,
 * type NVL/PIX, sameChannels 1}, {@code 24 coll channels, 24 collnet channels, 0 nvls channels ...}).
 */
public final class NcclLogFilter {

    private static final Pattern KEEP = Pattern.compile(
            "NCCL version|Channel \\d+/\\d+|Trees|Pattern \\d+|coll channels|p2p channels|nvls|NVLS|CollNet"
            + "|Ring \\d+|Tree \\d+|Algo|algorithm|protocol|Protocol|TUNER|Tuner|tuner|comm 0x|Connected all"
            + "|NCCL_|threadThresholds|MNNVL|P2P Chunksize|ncclCommInit");

    private NcclLogFilter() {
    }

    /**
     * @param lines NCCL output lines
     * @param max   at most this many lines kept (the first ones)
     * @return the kept lines, trimmed
     */
    public static List<String> keep(List<String> lines, int max) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            if (out.size() >= max) {
                break;
            }
            if (l.contains("NCCL INFO") && KEEP.matcher(l).find()) {
                out.add(l.strip());
            }
        }
        return out;
    }
}
