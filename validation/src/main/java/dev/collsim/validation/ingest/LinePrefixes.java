package dev.collsim.validation.ingest;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What launchers and log collectors put before each line of nccl-tests output, removed before the line is read:
 * {@code srun -l}'s rank ({@code " 0: "}), {@code mpirun --tag-output}'s {@code "[1,0]<stdout>:"}, an ISO 8601 time
 * stamp ({@code kubectl logs --timestamps}), and a Ray-style job-log prefix as SkyPilot prints it before each line of
 * a multi-node job ({@code "(head, rank=0, pid=3808) "}). It also gives back the {@code "# "} that a documentation
 * page's console block drops before nccl-tests' own comment lines (the column titles {@code size count type ...},
 * the units row {@code (B) (elements) ...}, {@code nThread ...}, {@code out-of-place in-place}, {@code Out of bounds
 * values}, {@code Collective test concluded}), as dstack's cluster guides print them: nccl-tests 2.17.6
 * {@code src/util.cu} prints every one of these lines with a leading {@code '#'} ({@code PRINT("# nThread ...")},
 * {@code "# %10s ..."}, {@code "# Out of bounds values ..."}, {@code "# Collective test concluded ..."}).
 */
final class LinePrefixes {

    private static final Pattern SRUN_PREFIX = Pattern.compile("^\\s{0,3}\\d{1,5}: ");
    /**
     * Open MPI's {@code --tag-output} tag, {@code "[job,rank]<stdout>:"} ({@code <stderr>}, {@code <stddiag>}): the
     * one spelling of it, used at a line's start here and mid-line by {@link LearnedPrefix}.
     */
    static final String OPEN_MPI_TAG = "\\[\\d+,\\d+\\]<std(?:out|err|diag)>:";
    private static final Pattern MPI_PREFIX = Pattern.compile("^" + OPEN_MPI_TAG);
    /** An ISO 8601 time stamp before each line: kubectl/docker logs --timestamps (RFC 3339), ts '%FT%T', [...] */
    private static final Pattern TIME_PREFIX = Pattern.compile(
            "^\\[?\\d{4}-\\d{2}-\\d{2}[T ]\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})?\\]? ");
    /**
     * A job-log prefix naming the node and process: a parenthesis holding a {@code pid=} field, then one space, as
     * SkyPilot writes {@code "(head, rank=0, pid=3808) "} and {@code "(worker1, rank=1, pid=2769, ip=10.0.0.2) "}.
     */
    private static final Pattern JOB_PREFIX = Pattern.compile("^\\([^()]*\\bpid=\\d+[^()]*\\) ");
    /** An nccl-tests comment line whose leading '#' a rendered console block dropped (see the class comment). */
    private static final Pattern DROPPED_HASH = Pattern.compile("^\\s*(?:size\\s+count\\s+type\\b"
            + "|\\(B\\)\\s+\\(elements\\)|nThread\\s+\\d|out-of-place\\s+in-place\\s*$|Out of bounds values\\s*:"
            + "|Collective test concluded)");

    private LinePrefixes() {
    }

    /**
     * @param raw a line as it stands in the file
     * @return the line without the prefixes above (time stamp, then job-log, then mpirun, then srun's rank, the last
     *         only where nccl-tests or NCCL text follows it), with a dropped {@code "# "} given back
     */
    static String strip(String raw) {
        String t = TIME_PREFIX.matcher(raw).replaceFirst("");
        t = MPI_PREFIX.matcher(JOB_PREFIX.matcher(t).replaceFirst("")).replaceFirst("");
        Matcher m = SRUN_PREFIX.matcher(t);
        if (m.find() && t.substring(m.end()).matches("^\\s*(#|\\d|NCCL|node|\\[).*")) {
            t = t.substring(m.end());
        }
        return DROPPED_HASH.matcher(t).find() ? "# " + t.strip() : t;
    }
}
