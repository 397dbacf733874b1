package dev.muster.jobs;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import java.util.Optional;

/**
 * What reading one manifest gave: the object when it could be read at all, and every problem, each
 * naming the object, the field and the bad value ({@code Job ml/train: spec.tasks[0].replicas: 'x' is not an integer}).
 * An object with problems is still returned when its identity could be read, so the controller can
 * put the problems on its status.
 */
public record JobReadResult<T>(Optional<T> object, ImmutableList<String> problems) {
    public JobReadResult {
        requireNonNull(object, "object is null");
        problems = ImmutableList.copyOf(problems);
    }

    public boolean isValid() {
        return object.isPresent() && problems.isEmpty();
    }

    /** The object, or an exception listing every problem. */
    public T orElseThrow() {
        if (!isValid()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        return object.orElseThrow();
    }
}
