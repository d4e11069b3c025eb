package dev.collsim.sweep.run;

import dev.collsim.sweep.point.PointResult;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;

/**
 * Computes chunks of points on Spark: embedded local mode ({@code local[N]}, nothing installed) or a cluster
 * ({@code spark://HOST:PORT}, {@code k8s://...}, {@code yarn}). The spec travels as a broadcast {@link SpecBundle};
 * collsim's jars (not Spark's) travel with {@code spark.jars}. Starts a Spark session unless one is running in this
 * JVM already; close it.
 */
public final class SparkPoints implements AutoCloseable {

    private final SparkSession spark;
    private final JavaSparkContext sc;
    private final boolean own;

    /**
     * @param master Spark master URL, e.g. {@code local[2]} or {@code spark://127.0.0.1:7077}
     * @param jars   jars executors need beyond Spark's own (collsim and its libraries); empty in local mode
     * @param conf   further Spark settings ({@code --conf K=V})
     */
    public SparkPoints(String master, List<String> jars, Map<String, String> conf) {
        SparkConf c = new SparkConf().setMaster(master).setAppName("collsim sweep")
                .set("spark.ui.enabled", "false")
                .set("spark.ui.showConsoleProgress", "false");
        if (master.startsWith("local")) {
            // embedded: nothing leaves this machine
            c.set("spark.driver.host", "127.0.0.1").set("spark.driver.bindAddress", "127.0.0.1");
        }
        if (!jars.isEmpty()) {
            c.set("spark.jars", String.join(",", jars));
        }
        conf.forEach(c::set);
        // a session already running in this JVM (a test class's) is used as it is, and left running
        own = SparkSession.getDefaultSession().isEmpty();
        spark = own ? SparkSession.builder().config(c).getOrCreate() : SparkSession.getDefaultSession().get();
        sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
    }

    /** @return how many tasks Spark runs at once (its default parallelism) */
    public int parallelism() {
        return sc.defaultParallelism();
    }

    /**
     * @param bundle shipped spec (broadcast once per call)
     * @param chunks chunk ids to compute, one task each
     * @param size   points per chunk
     * @return each chunk's points, in the order of {@code chunks}
     */
    public List<List<PointResult>> compute(SpecBundle bundle, List<Integer> chunks, int size) {
        Broadcast<SpecBundle> b = sc.broadcast(bundle);
        try {
            return sc.parallelize(chunks, chunks.size()).map(id -> ChunkTask.compute(b.value(), id, size)).collect();
        } finally {
            b.destroy();
        }
    }

    /** Stops the session when this instance started it. */
    @Override
    public void close() {
        if (own) {
            spark.stop();
        }
    }
}
