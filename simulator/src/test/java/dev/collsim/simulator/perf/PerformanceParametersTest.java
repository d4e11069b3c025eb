package dev.collsim.simulator.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import org.junit.jupiter.api.Test;

/** Jackson round trip with stable field names; validation messages name the field. */
class PerformanceParametersTest {

    private final ObjectMapper json = new ObjectMapper();

    @Test
    void roundTripsThroughJsonWithStableNames() throws Exception {
        String text = json.writeValueAsString(PerformanceParameters.DEFAULTS);
        assertTrue(text.startsWith("{\"launchOverheadUs\":1.5,\"latencyScale\":1.0,"), text);
        assertTrue(text.contains("\"perChannelCapSimple\":[26.5,24.0,20.7,20.7]"), text);
        assertEquals(PerformanceParameters.DEFAULTS, json.readValue(text, PerformanceParameters.class));
    }

    @Test
    void outOfRangeValueNamesTheField() {
        String bad = "{\"launchOverheadUs\":-1,\"latencyScale\":1,\"bwEfficiencyLL\":1,\"bwEfficiencyLL128\":1,"
                + "\"bwEfficiencySimple\":1,\"perChannelCapLL\":[1,1,1,1],\"perChannelCapLL128\":[1,1,1,1],"
                + "\"perChannelCapSimple\":[1,1,1,1],\"pipelineFillChunks\":1,\"p2pBaseLatencyUs\":1,"
                + "\"localCopyGBps\":1}";
        ValueInstantiationException e = assertThrows(ValueInstantiationException.class,
                () -> json.readValue(bad, PerformanceParameters.class));
        assertTrue(e.getMessage().contains("launchOverheadUs"), e.getMessage());
    }
}
