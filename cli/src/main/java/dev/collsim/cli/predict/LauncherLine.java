package dev.collsim.cli.predict;

import dev.collsim.cli.ExitCodes;
import dev.collsim.cli.UserError;
import dev.collsim.cli.predict.LauncherOptions.Family;
import dev.collsim.cli.predict.LauncherOptions.Kind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/**
 * Reads one launcher prefix ({@code mpirun -np 32 -N 8}, {@code srun -N 4 --ntasks-per-node 8},
 * {@code torchrun --nnodes 2 --nproc-per-node 8}) up to the program it starts, and works out the processes and
 * processes per host the launcher gives nccl-tests ({@link LaunchLayout}). An option collsim does not know is a
 * usage error naming it, never silently dropped.
 */
final class LauncherLine {

    private final Family family;
    private final String launcher;
    private final List<String> used = new ArrayList<>();
    private final List<String> ignored = new ArrayList<>();
    private final List<String> ncclEnv = new ArrayList<>();
    private final MpiHosts hosts = new MpiHosts();
    private Integer procs;
    private Integer perHost;
    private Integer nodes;
    private boolean mapByNode;
    private String missingHostfile;

    private LauncherLine(Family family, String launcher) {
        this.family = family;
        this.launcher = launcher;
    }

    /**
     * @param args   the command line
     * @param at     the index of the launcher word
     * @param family its family
     * @return the layout and the index of the program the launcher starts, as {@code [layout, index]}
     * @throws UserError (usage) for an unknown option, a bad value, or a launcher that names no program
     */
    static Parsed read(String[] args, int at, Family family) {
        LauncherLine line = new LauncherLine(family, args[at].substring(args[at].lastIndexOf('/') + 1));
        int i = at + 1;
        while (i < args.length && args[i].startsWith("-") && args[i].length() > 1) {
            i = line.option(args, i);
        }
        if (i >= args.length) {
            throw line.error("names no program: the nccl-tests binary (e.g. ./build/all_reduce_perf) and its flags"
                    + " must follow the launcher's options");
        }
        String text = String.join(" ", line.launcher, String.join(" ", line.used)).trim();
        return new Parsed(line.layout(text), i);
    }

    /**
     * @param layout  what the launcher gives
     * @param program the index of the program word
     */
    record Parsed(LaunchLayout layout, int program) {
    }

    private int option(String[] args, int i) {
        String tok = args[i];
        String name = tok;
        String inline = null;
        if (tok.startsWith("--") && tok.contains("=")) {
            name = tok.substring(0, tok.indexOf('='));
            inline = tok.substring(tok.indexOf('=') + 1);
        } else if (family == Family.SRUN && tok.matches("-[A-Za-z].+")) {
            name = tok.substring(0, 2);
            inline = tok.substring(2);
        }
        Kind kind = LauncherOptions.kind(family, name);
        if (kind == null) {
            throw error("option '" + name + "' is not one collsim reads; it reads " + LauncherOptions.layoutOptions(family)
                    + " and skips options that do not change the layout (such as --bind-to, --mca, -x VAR); drop it,"
                    + " or give collsim predict --nprocs P --procs-per-host Q instead of the launcher");
        }
        int need = switch (kind) {
            case FLAG -> 0;
            case IGNORE_TWO, EXPORT_PAIR -> 2;
            default -> 1;
        };
        if (inline != null && need != 1) {
            throw error("option '" + name + "' takes " + (need == 0 ? "no value" : "two values") + ", found '" + tok + "'");
        }
        List<String> values = new ArrayList<>();
        if (inline != null) {
            values.add(inline);
        } else {
            for (int v = 1; v <= need; v++) {
                if (i + v >= args.length) {
                    throw error("option '" + name + "' needs " + (need == 1 ? "a value" : "two values"));
                }
                values.add(args[i + v]);
            }
        }
        apply(kind, name, values);
        return i + 1 + (inline != null ? 0 : need);
    }

    private void apply(Kind kind, String name, List<String> values) {
        String v = values.isEmpty() ? null : values.get(0);
        if (EnumSet.of(Kind.PROCS, Kind.PER_HOST, Kind.NODES, Kind.MAP_BY, Kind.HOSTS, Kind.HOSTFILE).contains(kind)) {
            used.add(name + " " + v);
        }
        switch (kind) {
            case PROCS -> procs = count(name, v);
            case PER_HOST -> perHost = count(name, v);
            case NODES -> nodes = nodes(name, v);
            case MAP_BY -> mapBy(v);
            case HOSTS -> hosts.addList(v);
            case HOSTFILE -> hostfile(v);
            case EXPORT_ONE -> export(name, v);
            case EXPORT_PAIR -> export(name, values.get(0) + "=" + values.get(1));
            case EXPORT_LIST -> Arrays.stream(v.split(",")).filter(e -> !e.equals("ALL") && !e.equals("NONE"))
                    .forEach(e -> export(name, e));
            default -> ignored.add(String.join(" ", name, String.join(" ", values)).trim());
        }
    }

    private void export(String name, String setting) {
        if (setting.startsWith("NCCL_") && setting.contains("=")) {
            ncclEnv.add(setting);
        } else {
            ignored.add(name + " " + setting);
        }
    }

    private void hostfile(String file) {
        if (Files.isRegularFile(Path.of(file))) {
            hosts.addFile(Path.of(file));
        } else {
            missingHostfile = file;
        }
    }

    private void mapBy(String value) {
        String v = value.toLowerCase(Locale.ROOT);
        String[] parts = v.split(":");
        if (parts[0].equals("ppr")) {
            if (parts.length < 3 || !parts[2].equals("node")) {
                throw error("--map-by " + value + ": collsim reads the processes per host, ppr:K:node");
            }
            perHost = count("--map-by ppr:K:node", parts[1]);
        } else if (parts[0].equals("node")) {
            mapByNode = true;
        } else if (List.of("slot", "core", "socket", "package", "numa", "l3cache", "hwthread", "board")
                .contains(parts[0])) {
            used.remove("--map-by " + value);
            ignored.add("--map-by " + value);
        } else {
            throw error("--map-by " + value + ": collsim reads ppr:K:node, node, or an order inside a host (slot,"
                    + " core, socket, numa, ...)");
        }
    }

    private int count(String name, String value) {
        if (value == null || !value.matches("[0-9]{1,7}") || Integer.parseInt(value) < 1) {
            throw error("option '" + name + "' needs a whole number of processes of at least 1, found '" + value + "'"
                    + (family == Family.TORCHRUN ? " (collsim does not know this machine's GPU or CPU count)" : ""));
        }
        return Integer.parseInt(value);
    }

    private int nodes(String name, String value) {
        String[] range = value.split("[-:]");
        if (range.length == 2 && range[0].equals(range[1])) {
            return count(name, range[0]);
        }
        if (range.length != 1) {
            throw error("option '" + name + "' " + value + " is a range of node counts; give one count");
        }
        return count(name, value);
    }

    private LaunchLayout layout(String text) {
        return switch (family) {
            case MPI -> mpi(text);
            case SRUN -> srun(text);
            case TORCHRUN -> {
                int n = nodes == null ? 1 : nodes;
                int k = perHost == null ? 1 : perHost;
                yield new LaunchLayout(text, n * k, k, ncclEnv, ignored);
            }
        };
    }

    private LaunchLayout mpi(String text) {
        if (missingHostfile != null) {
            if (perHost == null || procs == null) {
                throw error("hostfile " + missingHostfile + " is not here, and collsim reads the slots per host from it;"
                        + " give -np N and -N K (processes per host)");
            }
            used.remove("--hostfile " + missingHostfile);
            ignored.add("--hostfile " + missingHostfile + " (not found here; -np and -N give the layout)");
        }
        if (procs == null && hosts.isEmpty() && perHost != null) {
            // -N K alone: K processes on every node of the allocation (Open MPI 4.0 mpirun(1), -N / --npernode), the
            // cluster's hosts here, as predict's --procs-per-host without --nprocs
            return new LaunchLayout(text, 0, perHost, ncclEnv, ignored);
        }
        if (procs == null) {
            if (hosts.isEmpty()) {
                throw error("without -np starts one process per slot of its machines, which collsim does not know;"
                        + " give -np N, or -N K for K processes on every host of the cluster");
            }
            procs = hosts.totalSlots();
        }
        if (perHost == null && mapByNode) {
            int n = hosts.hostCount();
            if (n == 0 || procs % n != 0) {
                throw error("--map-by node deals processes round-robin over the hosts; collsim places the same count"
                        + " on each host in order: give -N K (processes per host)");
            }
            perHost = procs / n;
        }
        if (perHost == null && !hosts.isEmpty()) {
            perHost = hosts.uniformSlots();
            if (perHost == null) {
                throw error("hosts have different slot counts (" + hosts.text() + "); collsim places the same count on"
                        + " each host: give -N K (processes per host)");
            }
            perHost = Math.min(perHost, procs);
        }
        return new LaunchLayout(text, procs, perHost, ncclEnv, ignored);
    }

    private LaunchLayout srun(String text) {
        int n = procs != null ? procs : (nodes == null ? 1 : nodes) * (perHost == null ? 1 : perHost);
        Integer k = perHost;
        if (k == null && nodes != null) {
            if (n % nodes != 0) {
                throw error("-n " + n + " over -N " + nodes + ": the tasks do not divide evenly over the nodes; collsim"
                        + " places the same count on each host: give --ntasks-per-node K");
            }
            k = n / nodes;
        }
        return new LaunchLayout(text, n, k, ncclEnv, ignored);
    }

    private UserError error(String what) {
        return new UserError(launcher + " " + what, ExitCodes.USAGE);
    }
}
