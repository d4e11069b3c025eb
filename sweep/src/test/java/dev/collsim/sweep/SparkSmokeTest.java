package dev.collsim.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

class SparkSmokeTest {
    @Test
    void runs() {
        SparkSession s = SparkSession.builder().master("local[2]").appName("t").config("spark.ui.enabled", "false").getOrCreate();
        try {
            JavaSparkContext sc = JavaSparkContext.fromSparkContext(s.sparkContext());
            assertEquals(10, sc.parallelize(List.of(1, 2, 3, 4), 2).map(x -> x).reduce(Integer::sum));
        } finally {
            s.stop();
        }
    }
}
