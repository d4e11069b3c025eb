package dev.collsim.cli.predict;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.cli.predict.LauncherOptions.Family;
import dev.collsim.nccl.Collective;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Lets {@code collsim predict} read a pasted nccl-tests line that starts with its launcher, e.g.
 * {@code collsim predict mpirun -np 32 -N 8 ./build/all_reduce_perf -b 8 -e 8G -f 2 -g 1}: the launcher and its
 * options are read by {@link LauncherLine} (so {@code -np} is never taken for nccl-tests' {@code -n p}) and replaced
 * by predict's own {@code --nprocs}, {@code --procs-per-host} and {@code --env} options, plus the launcher's text for
 * the {@code # Ranks:} header line. A command line without a launcher word is returned unchanged.
 */
public final class LauncherPrefix {

    /** The hidden predict option that carries the launcher's text to {@link NcclTestsRanks#describe}. */
    static final String LAUNCHER_OPTION = "--launcher";

    private LauncherPrefix() {
    }

    /**
     * @param args collsim's command line
     * @return the same line, or for {@code predict} with a launcher word the line with the launcher rewritten
     * @throws UserError (usage) for a launcher option collsim does not know or a bad value
     */
    public static String[] rewrite(String[] args) {
        if (args.length < 2 || !"predict".equals(args[0])) {
            return args;
        }
        for (int at = 1; at < args.length; at++) {
            Family family = LauncherOptions.family(args[at]);
            if (family != null) {
                LauncherLine.Parsed p = LauncherLine.read(args, at, family);
                LaunchLayout layout = p.layout();
                // pasted after predict's own words: "--" before it ends predict's options, which the launcher's
                // rewrite needs, and a collective already named makes the program word a second one
                List<String> out = new ArrayList<>(Arrays.asList(args).subList(0, at > 1 && "--".equals(args[at - 1])
                        ? at - 1 : at));
                int program = p.program() + (named(out, args, p.program()) ? 1 : 0);
                if (layout.procs() > 0) {
                    out.add("--nprocs");
                    out.add(String.valueOf(layout.procs()));
                }
                if (layout.procsPerHost() != null) {
                    out.add("--procs-per-host");
                    out.add(String.valueOf(layout.procsPerHost()));
                }
                for (String e : layout.ncclEnv()) {
                    out.add("--env");
                    out.add(e);
                }
                out.add(LAUNCHER_OPTION);
                out.add(layout.describe());
                out.addAll(Arrays.asList(args).subList(Math.min(program, args.length), args.length));
                return out.toArray(String[]::new);
            }
        }
        return args;
    }

    /**
     * @param before  predict's words before the launcher
     * @param args    the whole command line
     * @param program the index of the program the launcher starts
     * @return true when a word before the launcher already names the collective the program runs (the program word
     *         is then dropped); false when none names a collective
     * @throws UserError (usage) when the words before name another collective than the program
     */
    private static boolean named(List<String> before, String[] args, int program) {
        Collective run;
        try {
            run = program < args.length ? Collective.parse(args[program]) : null;
        } catch (IllegalArgumentException notACollective) {
            return false;
        }
        for (String w : before.subList(1, before.size())) {
            Collective c;
            try {
                c = w.startsWith("-") ? null : Collective.parse(w);
            } catch (IllegalArgumentException notACollective) {
                continue;
            }
            if (c == run) {
                return true;
            }
            if (c != null) {
                throw new UserError("predict: the command names " + w + " and the pasted line runs " + args[program]
                        + "; allowed: one collective (the pasted line's program names it)", ExitCodes.USAGE);
            }
        }
        return false;
    }
}
