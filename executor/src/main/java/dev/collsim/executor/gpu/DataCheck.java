package dev.collsim.executor.gpu;

import static dev.collsim.executor.gpu.Native.cuda;

import dev.collsim.executor.DataLayout;
import dev.collsim.executor.NumberCodec;
import dev.collsim.executor.PatternIo;
import dev.collsim.executor.Verifiable;
import dev.collsim.nccl.CollGeometry;
import dev.collsim.nccl.Collective;
import dev.collsim.nccl.DataType;
import dev.collsim.nccl.RedOp;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.bytedeco.cuda.global.cudart;
import org.bytedeco.javacpp.BytePointer;

/**
 * Writes {@link Verifiable} inputs to the GPUs and counts wrong output elements, through the pinned staging
 * buffer in chunks of {@link GpuContext#STAGING_BYTES}. Out-of-place receive regions are poisoned (0xFF bytes)
 * first so an element NCCL never wrote is counted wrong.
 */
final class DataCheck {

    private final GpuContext ctx;
    private final Collective coll;
    private final DataType type;
    private final int root;
    private final Verifiable v;
    private final int es;
    private final byte[] reducedBytes;
    private final double[] reducedValues;

    DataCheck(GpuContext ctx, Collective coll, DataType type, RedOp op, int root) {
        this.ctx = ctx;
        this.coll = coll;
        this.type = type;
        this.root = root;
        this.v = new Verifiable(coll.isReduction() ? op : RedOp.SUM, type, ctx.nRanks);
        this.es = type.size();
        this.reducedValues = v.reducedPeriod();
        ByteBuffer b = ByteBuffer.allocate(reducedValues.length * es).order(ByteOrder.LITTLE_ENDIAN);
        for (double x : reducedValues) {
            int pos = b.position();
            try {
                NumberCodec.put(b, type, x);
            } catch (IllegalArgumentException notExact) {
                b.position(pos);
                for (int k = 0; k < es; k++) {
                    b.put((byte) 0xFF); // never equal: the element is compared by value with tolerance
                }
            }
        }
        this.reducedBytes = b.array();
    }

    /** Writes every local rank's input (iteration 0, no shift) and poisons out-of-place outputs. */
    void init(CollGeometry g, boolean inPlace) {
        for (int i = 0; i < ctx.localRanks(); i++) {
            int rank = ctx.firstRank + i;
            cuda(cudart.cudaSetDevice(ctx.devices[i]), "cudaSetDevice");
            if (!inPlace) {
                cuda(cudart.cudaMemset(ctx.recvBufs[i], 0xFF, g.recvCount() * es), "cudaMemset");
            }
            long base = inPlace ? g.sendInplaceOffset() * rank * es : 0;
            BytePointer dst = new BytePointer(inPlace ? ctx.recvBufs[i] : ctx.sendBufs[i]);
            byte[] period = v.inputPeriod(rank);
            for (DataLayout.Segment s : DataLayout.input(coll, g, rank)) {
                write(dst, base + s.offset() * es, period, s.phase(), s.count());
            }
        }
        cuda(cudart.cudaSetDevice(ctx.devices[0]), "cudaSetDevice");
    }

    /** @return wrong elements over the local ranks */
    long countWrong(CollGeometry g, boolean inPlace) {
        long wrong = 0;
        for (int i = 0; i < ctx.localRanks(); i++) {
            int rank = ctx.firstRank + i;
            cuda(cudart.cudaSetDevice(ctx.devices[i]), "cudaSetDevice");
            long base = inPlace ? g.recvInplaceOffset() * rank * es : 0;
            BytePointer src = new BytePointer(ctx.recvBufs[i]);
            for (DataLayout.Segment s : DataLayout.expected(coll, g, ctx.nRanks, rank, root)) {
                byte[] bytes = s.srcRank() == DataLayout.REDUCED ? reducedBytes : v.inputPeriod(s.srcRank());
                double[] values = s.srcRank() == DataLayout.REDUCED ? reducedValues : v.inputValues(s.srcRank());
                wrong += read(src, base + s.offset() * es, bytes, values, s.phase(), s.count());
            }
        }
        cuda(cudart.cudaSetDevice(ctx.devices[0]), "cudaSetDevice");
        return wrong;
    }

    private void write(BytePointer dst, long byteOff, byte[] period, long phase, long count) {
        long chunkElems = GpuContext.STAGING_BYTES / es;
        long done = 0;
        while (done < count) {
            long n = Math.min(chunkElems, count - done);
            ByteBuffer hb = ctx.stagingBuf;
            hb.clear();
            PatternIo.fill(hb, period, es, phase + done, n);
            dst.position(byteOff + done * es);
            cuda(cudart.cudaMemcpy(dst, ctx.staging, n * es, cudart.cudaMemcpyHostToDevice), "cudaMemcpy H2D");
            done += n;
        }
    }

    private long read(BytePointer src, long byteOff, byte[] period, double[] values, long phase, long count) {
        long chunkElems = GpuContext.STAGING_BYTES / es;
        long done = 0;
        long wrong = 0;
        while (done < count) {
            long n = Math.min(chunkElems, count - done);
            src.position(byteOff + done * es);
            cuda(cudart.cudaMemcpy(ctx.staging, src, n * es, cudart.cudaMemcpyDeviceToHost), "cudaMemcpy D2H");
            ByteBuffer hb = ctx.stagingBuf;
            hb.clear();
            wrong += PatternIo.countWrong(hb, period, values, type, v, phase + done, n, ctx.checkScratch());
            done += n;
        }
        return wrong;
    }
}
