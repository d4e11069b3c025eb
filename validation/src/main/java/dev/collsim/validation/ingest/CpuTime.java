package dev.collsim.validation.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.collsim.io.InputException;
import dev.collsim.io.InputProblem;
import dev.collsim.io.NumberField;

/**
 * nccl-tests {@code -C 1} ({@code report_cputime}, 2.13.9 and later): its time column is headed {@code cputime} in
 * text ({@code src/util.cu writeResultHeader}) and keyed {@code cpu_time} in {@code -J} JSON
 * ({@code writeBenchmarkLineBody}). That time is not the collective's: nccl-tests 2.19.6 {@code src/common.cu
 * BenchTime} takes {@code cputimeSec = tim.elapsed()} once the iterations are enqueued and before
 * {@code completeColl} waits for the GPUs, prints it ({@code timeUsec = (report_cputime ? cputimeSec : deltaSec)}),
 * and computes algbw and busbw from {@code deltaSec}, the time after the GPUs finish. So the readers refuse such a
 * table at its time column rather than compare a host enqueue time with the model.
 */
final class CpuTime {

    /** @param found the header or key found; @return the refusal's words after the field name */
    static String refused(String found) {
        return "found '" + found + "' (nccl-tests -C 1: the host's time to enqueue each call, taken before the GPUs"
                + " finish; algbw and busbw are from the GPU time, nccl-tests src/common.cu BenchTime); allowed: time"
                + " (run nccl-tests without -C, or with -C 0)";
    }

    private CpuTime() {
    }

    /**
     * @param header a table header line, stripped (as {@code NcclTestsLayout.parse} reads it)
     * @throws NumberField.Refused at the {@code cputime} column (1-based in {@code header}) when the table has one
     */
    static void refuseHeader(String header) {
        int at = header.indexOf("cputime");
        if (at >= 0) {
            throw new NumberField.Refused("time", at + 1, refused("cputime"));
        }
    }

    /**
     * @param file    name to cite
     * @param results the {@code results} array of an nccl-tests {@code -J} file (or a collsim run's)
     * @throws InputException at the first result whose half times with {@code cpu_time}
     *                        ({@code results[3].out_of_place.cpu_time})
     */
    static void refuseJson(String file, JsonNode results) throws InputException {
        for (int i = 0; i < results.size(); i++) {
            for (String half : new String[] {"out_of_place", "in_place"}) {
                if (results.get(i).path(half).has("cpu_time")) {
                    throw new InputException(new InputProblem(file, 0, 0, "results[" + i + "]." + half + ".cpu_time",
                            refused("cpu_time")));
                }
            }
        }
    }
}
