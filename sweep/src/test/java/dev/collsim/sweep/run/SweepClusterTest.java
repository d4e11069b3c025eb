package dev.collsim.sweep.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.collsim.sweep.point.PointResult;
import dev.collsim.sweep.spec.DesignSpaceReader;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep of {@link SweepLocalTest} on a standalone Spark cluster started here: a master and a worker (2 cores),
 * each its own JVM on 127.0.0.1 only, with a Spark installation made of the library jars of this build (the worker's
 * executors get collsim's own classes only through {@code spark.jars}, as on a real cluster). Every point must equal the point computed
 * in this JVM. Takes minutes on 2 cores, so it runs only with {@code -Pspark-cluster}:
 * {@code mvn -o -B -pl sweep -am verify -Pspark-cluster -Dtest=SweepClusterTest -Dsurefire.failIfNoSpecifiedTests=false}.
 */
@EnabledIfSystemProperty(named = "sweep.cluster.test", matches = "true")
class SweepClusterTest {

    @TempDir
    Path dir;

    @Test
    void clusterGivesTheSamePointsAsThisJvm() throws Exception {
        Path target = Path.of(System.getProperty("sweep.classpath.dir"));
        List<String> all = ShipJars.read(target.resolve("classpath.txt"));
        List<String> ship = ShipJars.read(target.resolve("ship-classpath.txt"));
        Path jars = Files.createDirectories(dir.resolve("spark-home/jars"));
        for (String e : all) {
            // Spark's installation: every library jar (Spark's dependencies include some of collsim's, e.g.
            // Jackson), but none of collsim's own classes: those reach the executors only through spark.jars
            if (e.endsWith(".jar") && !Path.of(e).getFileName().toString().startsWith("collsim-")) {
                Files.createSymbolicLink(jars.resolve(Path.of(e).getFileName()), Path.of(e));
            }
        }
        List<String> entries = new ArrayList<>(List.of(target.resolve("classes").toString()));
        entries.addAll(ship);
        List<String> shipped = ShipJars.of(entries, dir.resolve("shipped"));
        int port = freePort();
        String master = "spark://127.0.0.1:" + port;
        String cp = jars + File.separator + "*";
        List<Process> started = new ArrayList<>();
        try {
            started.add(start(cp, "master", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port",
                    String.valueOf(port), "--webui-port", String.valueOf(freePort())));
            started.add(start(cp, "worker", "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1",
                    "--cores", "2", "--memory", "2g", "--webui-port", String.valueOf(freePort()), "--work-dir",
                    dir.resolve("work").toString(), master));
            Files.writeString(dir.resolve("s.yaml"), SweepLocalTest.SPEC);
            SweepRun.Result r = SweepRun.run(new SweepOptions(dir.resolve("s.yaml"), dir.resolve("out"), master, 4,
                    shipped, Map.of("spark.driver.host", "127.0.0.1", "spark.driver.bindAddress", "127.0.0.1",
                    "spark.executor.memory", "1g", "spark.cores.max", "2"), true, false),
                    new PrintWriter(new StringWriter()));
            SpecBundle bundle = SpecBundle.of(dir.resolve("s.yaml"), DesignSpaceReader.read(dir.resolve("s.yaml")));
            List<PointResult> here = new ArrayList<>();
            for (int c = 0; c < ChunkTask.chunks(26, 4); c++) {
                here.addAll(ChunkTask.compute(bundle, c, 4));
            }
            assertEquals(26, r.computed());
            assertEquals(here, r.rows());
        } finally {
            for (Process p : started) {
                p.descendants().forEach(ProcessHandle::destroy);
                p.destroy();
                p.waitFor();
            }
        }
    }

    private Process start(String cp, String name, String main, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx512m", "-cp", cp, main));
        cmd.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".log").toFile());
        b.environment().put("SPARK_HOME", dir.resolve("spark-home").toString());
        b.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        b.environment().put("SPARK_SCALA_VERSION", "2.13");
        b.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return b.start();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
