package dev.muster.engine.plugins.shortestfirst;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Splitter;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import dev.muster.engine.model.JobId;
import dev.muster.engine.model.QueueName;
import dev.muster.engine.model.Resources;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;

/**
 * Which finished jobs are similar to a job, for {@link ShortestFirstArgs#history()}: those with the same
 * key, made of the parts the argument names, joined by {@code +}: {@code queue}, {@code namespace},
 * {@code name-prefix} (the PodGroup's name without its trailing parts that hold a digit, which
 * controllers add per run: {@code train-resnet-7f9c2} and {@code train-resnet-1} are both
 * {@code train-resnet}), {@code gpus} (the GPUs the whole gang requests) and {@code annotation:NAME}
 * (the PodGroup annotation's value; a job without it has no key). {@code none} turns history off.
 * Only what a cluster knows about a job before it runs goes into a key.
 */
record SimilarityKey(ImmutableList<String> parts) {
    static final SimilarityKey NONE = new SimilarityKey(ImmutableList.of());
    private static final String ANNOTATION = "annotation:";
    private static final List<String> NAMED = List.of("queue", "namespace", "name-prefix", "gpus");
    static final String KNOWN = "none, or one or more of queue, namespace, name-prefix, gpus, annotation:NAME joined by +";

    SimilarityKey {
        parts = ImmutableList.copyOf(parts);
    }

    /** Parses the argument; the message of the exception names the bad part. */
    static SimilarityKey parse(String text) {
        requireNonNull(text, "text is null");
        if (text.equals("none")) {
            return NONE;
        }
        ImmutableList.Builder<String> parts = ImmutableList.builder();
        for (String part : Splitter.on('+').split(text)) {
            boolean annotation = part.startsWith(ANNOTATION) && part.length() > ANNOTATION.length();
            if (!annotation && !NAMED.contains(part)) {
                throw new IllegalArgumentException("history: unknown part '" + part + "' in '" + text + "' (known: " + KNOWN + ")");
            }
            parts.add(part);
        }
        return new SimilarityKey(parts.build());
    }

    boolean isNone() {
        return parts.isEmpty();
    }

    /** The job's key, empty when history is off or the job lacks an annotation the key names. */
    Optional<String> of(JobId id, QueueName queue, ImmutableMap<String, String> annotations, Resources requested) {
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder key = new StringBuilder();
        for (String part : parts) {
            String value = switch (part) {
                case "queue" -> queue.value();
                case "namespace" -> id.namespace();
                case "name-prefix" -> namePrefix(id.name());
                case "gpus" -> BigDecimal.valueOf(requested.get(Resources.GPU)).movePointLeft(3).stripTrailingZeros().toPlainString();
                default -> annotations.get(part.substring(ANNOTATION.length()));
            };
            if (value == null) {
                return Optional.empty();
            }
            // the separator cannot occur in a Kubernetes name or a number; an annotation holding it only merges keys
            key.append(part).append('=').append(value).append('\u0000');
        }
        return Optional.of(key.toString());
    }

    /** The name without its trailing parts (split at {@code -}) that hold a digit; the first part always stays. */
    static String namePrefix(String name) {
        List<String> segments = Splitter.on('-').splitToList(name);
        int end = segments.size();
        while (end > 1 && segments.get(end - 1).chars().anyMatch(Character::isDigit)) {
            end--;
        }
        return String.join("-", segments.subList(0, end));
    }
}
