package dev.muster.runtime.history;

import static java.nio.charset.StandardCharsets.UTF_8;
import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.FinishedJob;
import dev.muster.engine.model.JobHistory;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import dev.muster.engine.yaml.Texts;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The job history as the ConfigMap stores it: one JSON document, {@code {"jobs": [...]}}, oldest first,
 * each job with its {@code namespace}, {@code name}, {@code queue}, {@code finished} (an ISO-8601 instant),
 * {@code run} (an ISO-8601 duration, {@code PT1M30S}), {@code requested} (in the scheduler's units:
 * millicores, bytes, milli-units) and {@code annotations}.
 *
 * <p>A ConfigMap holds at most 1 MiB, so the text is kept under {@link #MAX_BYTES} by leaving out the
 * oldest jobs, and a job keeps only the annotations a similarity key ({@code annotation:NAME}) can
 * sensibly name: at most {@link #MAX_ANNOTATIONS}, each value at most {@link #MAX_ANNOTATION_VALUE}
 * characters. Longer ones, such as {@code kubectl.kubernetes.io/last-applied-configuration}, are dropped:
 * a key made of a whole manifest would match no other job anyway.
 *
 * <p>Decoding never fails: an entry that cannot be read is left out and named in the problems, so a
 * hand-edited or damaged ConfigMap costs its bad entries, not the scheduler.
 */
public final class HistoryCodec {
    /** The most jobs a ConfigMap holds, whatever the limit asked: about 200 bytes each stay under {@link #MAX_BYTES}. */
    public static final int MAX_JOBS = 5000;
    /** The most bytes the encoded history takes, leaving room in the 1 MiB ConfigMap for its metadata. */
    public static final int MAX_BYTES = 900 * 1024;
    public static final int MAX_ANNOTATIONS = 32;
    public static final int MAX_ANNOTATION_VALUE = 256;

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** A decoded history and what was wrong with the text, one message per entry left out. */
    public record Decoded(JobHistory history, ImmutableList<String> problems) {
        public Decoded {
            requireNonNull(history, "history is null");
            problems = ImmutableList.copyOf(problems);
        }
    }

    private HistoryCodec() {}

    /** The annotations of a finished job worth keeping: short values only, at most {@link #MAX_ANNOTATIONS}, by name. */
    public static ImmutableMap<String, String> kept(Map<String, String> annotations) {
        ImmutableMap.Builder<String, String> kept = ImmutableMap.builder();
        int count = 0;
        for (Map.Entry<String, String> annotation : new TreeMap<>(annotations).entrySet()) {
            if (count == MAX_ANNOTATIONS) {
                break;
            }
            if (annotation.getValue().length() <= MAX_ANNOTATION_VALUE) {
                kept.put(annotation);
                count++;
            }
        }
        return kept.buildOrThrow();
    }

    /** The newest jobs of {@code history} that fit in {@link #MAX_BYTES}, as JSON. */
    public static String encode(JobHistory history) {
        requireNonNull(history, "history is null");
        Deque<String> entries = new ArrayDeque<>();
        int bytes = "{\"jobs\":[]}".length();
        ImmutableList<FinishedJob> jobs = history.jobs();
        for (int i = jobs.size() - 1; i >= 0 && entries.size() < MAX_JOBS; i--) {
            String entry = write(entry(jobs.get(i)));
            int size = entry.getBytes(UTF_8).length + 1;
            if (bytes + size > MAX_BYTES) {
                break;
            }
            bytes += size;
            entries.addFirst(entry);
        }
        return "{\"jobs\":[" + String.join(",", entries) + "]}";
    }

    /** The history in {@code text}, without the entries that cannot be read, which the problems name. */
    public static Decoded decode(String text) {
        requireNonNull(text, "text is null");
        JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return new Decoded(JobHistory.EMPTY, ImmutableList.of("not JSON: " + e.getOriginalMessage()));
        }
        if (root == null || !root.path("jobs").isArray()) {
            return new Decoded(JobHistory.EMPTY, ImmutableList.of("no \"jobs\" array in " + Texts.shortened(text)));
        }
        ImmutableList.Builder<FinishedJob> jobs = ImmutableList.builder();
        ImmutableList.Builder<String> problems = ImmutableList.builder();
        int index = 0;
        for (JsonNode entry : root.path("jobs")) {
            try {
                jobs.add(job(entry));
            } catch (IllegalArgumentException e) {
                problems.add("jobs[" + index + "] (" + entry.path("namespace").asText("?") + "/" + entry.path("name").asText("?") + "): "
                        + e.getMessage());
            }
            index++;
        }
        ImmutableList<FinishedJob> read = jobs.build();
        // the newest MAX_JOBS: a longer list was not written by us
        return new Decoded(new JobHistory(read.subList(Math.max(0, read.size() - MAX_JOBS), read.size())), problems.build());
    }

    private static ObjectNode entry(FinishedJob job) {
        ObjectNode entry = MAPPER.createObjectNode();
        entry.put("namespace", job.id().namespace());
        entry.put("name", job.id().name());
        entry.put("queue", job.queue().value());
        entry.put("finished", job.finished().toString());
        entry.put("run", job.run().toString());
        ObjectNode requested = entry.putObject("requested");
        requested.put(Resources.CPU, job.requested().milliCpu());
        requested.put(Resources.MEMORY, job.requested().memory());
        job.requested().scalars().forEach(requested::put);
        ObjectNode annotations = entry.putObject("annotations");
        job.annotations().forEach(annotations::put);
        return entry;
    }

    private static FinishedJob job(JsonNode entry) {
        if (!entry.isObject()) {
            throw new IllegalArgumentException("not an object: " + Texts.shortened(entry.toString()));
        }
        JobId id = new JobId(text(entry, "namespace"), text(entry, "name"));
        QueueName queue = new QueueName(text(entry, "queue"));
        String finishedText = text(entry, "finished");
        String runText = text(entry, "run");
        Instant finished;
        Duration run;
        try {
            finished = Instant.parse(finishedText);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("finished '" + Texts.shortened(finishedText) + "' is not an ISO-8601 instant", e);
        }
        try {
            run = Duration.parse(runText);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("run '" + Texts.shortened(runText) + "' is not an ISO-8601 duration", e);
        }
        if (run.isNegative()) {
            throw new IllegalArgumentException("run '" + runText + "' is negative");
        }
        return new FinishedJob(id, queue, annotations(entry.path("annotations")), requested(entry.path("requested")), finished, run);
    }

    private static String text(JsonNode entry, String field) {
        JsonNode value = entry.path(field);
        if (!value.isTextual() || value.asText().isEmpty()) {
            throw new IllegalArgumentException(field + " is " + (value.isMissingNode() ? "missing" : "'" + Texts.shortened(value.toString()) + "'")
                    + ", not a non-empty string");
        }
        return value.asText();
    }

    private static Resources requested(JsonNode requested) {
        if (!requested.isObject()) {
            throw new IllegalArgumentException("requested is '" + Texts.shortened(requested.toString()) + "', not an object of quantities");
        }
        Map<String, Double> quantities = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = requested.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            double quantity = field.getValue().asDouble(-1);
            if (!field.getValue().isNumber() || quantity < 0 || Double.isInfinite(quantity)) {
                throw new IllegalArgumentException("requested " + field.getKey() + " is '" + Texts.shortened(field.getValue().toString())
                        + "', not a quantity");
            }
            quantities.put(field.getKey(), quantity);
        }
        return Resources.of(quantities);
    }

    private static ImmutableMap<String, String> annotations(JsonNode annotations) {
        if (annotations.isMissingNode()) {
            return ImmutableMap.of();
        }
        if (!annotations.isObject()) {
            throw new IllegalArgumentException("annotations is '" + Texts.shortened(annotations.toString()) + "', not an object of strings");
        }
        Map<String, String> read = new TreeMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = annotations.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!field.getValue().isTextual()) {
                throw new IllegalArgumentException("annotation " + field.getKey() + " is '" + Texts.shortened(field.getValue().toString())
                        + "', not a string");
            }
            read.put(field.getKey(), field.getValue().asText());
        }
        return kept(read);
    }

    private static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("BUG: a tree of strings and numbers cannot be written", e);
        }
    }
}
