package dev.collsim.sweep.out;

import dev.collsim.sweep.point.PointResult;
import dev.collsim.sweep.spec.DesignSpace;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/**
 * Writes the points table ({@link PointsTable}) as one Parquet file on the driver (Apache Parquet's own writer, so the
 * file is written where the sweep was started, also when the points were computed on a cluster). Columns are
 * required: 64-bit integers, 32-bit integers, doubles (NaN where a value does not apply) and UTF-8 strings.
 * Stateless.
 */
public final class PointsParquet {

    private PointsParquet() {
    }

    /**
     * @param file  the file to write (must not exist)
     * @param space the design space (columns)
     * @param rows  the points
     * @throws IOException when the file cannot be written
     */
    public static void write(Path file, DesignSpace space, List<PointResult> rows) throws IOException {
        List<String> names = PointsTable.columns(space);
        List<Object> sample = rows.isEmpty() ? null : PointsTable.values(rows.get(0));
        Types.MessageTypeBuilder b = Types.buildMessage();
        for (int k = 0; k < names.size(); k++) {
            Object v = sample == null ? "" : sample.get(k);
            if (v instanceof Long) {
                b.required(PrimitiveTypeName.INT64).named(names.get(k));
            } else if (v instanceof Integer) {
                b.required(PrimitiveTypeName.INT32).named(names.get(k));
            } else if (v instanceof Double) {
                b.required(PrimitiveTypeName.DOUBLE).named(names.get(k));
            } else {
                b.required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named(names.get(k));
            }
        }
        MessageType schema = b.named("point");
        SimpleGroupFactory groups = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> w = ExampleParquetWriter.builder(new LocalOutputFile(file)).withType(schema)
                .withCompressionCodec(CompressionCodecName.UNCOMPRESSED).build()) {
            for (PointResult r : rows) {
                Group g = groups.newGroup();
                List<Object> v = PointsTable.values(r);
                for (int k = 0; k < v.size(); k++) {
                    Object x = v.get(k);
                    if (x instanceof Long l) {
                        g.add(k, l);
                    } else if (x instanceof Integer i) {
                        g.add(k, i);
                    } else if (x instanceof Double d) {
                        g.add(k, d);
                    } else {
                        g.add(k, (String) x);
                    }
                }
                w.write(g);
            }
        }
    }
}
