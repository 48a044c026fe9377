package dev.rekon.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * The latency part beside an earlier run's: with {@code -Drekon.bench.baseline=FILE} (a {@code results.json} of
 * another commit, copied away before this run overwrites it) the bench prints both runs' figures per concurrency
 * level, so that a back-to-back pair reads as one table.
 */
final class Baseline {

    /** A figure of one latency row; its unit is said once per cell. */
    private record Figure(String label, String format, String unit, ToDoubleFunction<JsonObject> value) {
    }

    private static final List<Figure> FIGURES = List.of(
            new Figure("Rekon's CPU per rollout event without its JIT compiler", "%.2f", " ms",
                    r -> r.getDouble("cpu_ms_per_event_app") - r.getDouble("cpu_ms_per_event_app_jit")),
            new Figure("Rekon's CPU per rollout event with its JIT compiler", "%.2f", " ms",
                    r -> r.getDouble("cpu_ms_per_event_app")),
            new Figure("of it in the kernel (system time)", "%.2f", " ms", r -> optional(r, "cpu_ms_per_event_app_system")),
            new Figure("p50 ratio Rekon / raw PATCH (Deployment patched)", "%.2f", "×", r -> r.getDouble("p50_ratio")),
            new Figure("p50 ratio Rekon / floor (raw PATCH + event hop)", "%.2f", "×", r -> r.getDouble("p50_ratio_to_floor")),
            new Figure("rollout events per s", "%.0f", "", r -> r.getDouble("rekon_per_s")),
            new Figure("apiserver + etcd CPU per Rekon event", "%.2f", " ms", r -> r.getDouble("cpu_ms_per_event_control_plane")),
            new Figure("apiserver + etcd CPU per raw PATCH (the machine's pace)", "%.2f", " ms",
                    r -> optional(r, "cpu_ms_per_raw_patch_control_plane")),
            new Figure("API calls per Image event", "%.2f", "", Baseline::calls));

    /** A figure older runs did not write: NaN there. */
    private static double optional(JsonObject row, String key) {
        Double value = row.getDouble(key);
        return value == null ? Double.NaN : value;
    }

    private Baseline() {
    }

    /** The file named by {@code rekon.bench.baseline}, or null when none is set. */
    static Path file() {
        String f = System.getProperty("rekon.bench.baseline", "");
        return f.isBlank() ? null : Path.of(f);
    }

    /**
     * A markdown table of the latency figures, baseline beside this run, one column pair per concurrency level
     * (c=1 / c=8 / c=32 in one cell each).
     */
    static List<String> table(Path baselineFile, List<Map<String, Object>> now) throws IOException {
        JsonArray before = new JsonObject(Files.readString(baselineFile)).getJsonArray("latency", new JsonArray());
        JsonArray after = new JsonArray(now.stream().map(JsonObject::new).toList());
        List<String> out = new ArrayList<>();
        out.add("");
        out.add("| figure (c=" + levels(after) + ") | baseline (" + baselineFile.getFileName() + ") | this run |");
        out.add("|---|---|---|");
        for (Figure f : FIGURES) {
            out.add("| " + f.label() + " | " + cells(before, f) + " | " + cells(after, f) + " |");
        }
        return out;
    }

    private static String levels(JsonArray rows) {
        List<String> c = new ArrayList<>();
        rows.forEach(r -> c.add(String.valueOf(((JsonObject) r).getInteger("concurrency"))));
        return String.join(" / c=", c);
    }

    private static String cells(JsonArray rows, Figure f) {
        List<String> c = new ArrayList<>();
        rows.forEach(r -> c.add(String.format(f.format(), f.value().applyAsDouble((JsonObject) r))));
        return c.isEmpty() ? "—" : String.join(" / ", c) + f.unit();
    }

    private static double calls(JsonObject row) {
        JsonObject calls = row.getJsonObject("api_calls_per_event", new JsonObject());
        return calls.stream().mapToDouble(e -> ((Number) e.getValue()).doubleValue()).sum();
    }
}
