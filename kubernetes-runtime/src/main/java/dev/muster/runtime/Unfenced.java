package dev.muster.runtime;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.METHOD;
import static java.lang.annotation.ElementType.PARAMETER;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import com.google.inject.BindingAnnotation;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * The process's client itself, whose writes no lease fences: for the leader election, which writes the
 * Lease also while it does not lead. Everything else injects the plain {@code KubernetesClient}, which
 * with leader election is a {@link dev.muster.runtime.binding.FencedClient fenced} view of this one.
 */
@BindingAnnotation
@Target({FIELD, PARAMETER, METHOD})
@Retention(RUNTIME)
public @interface Unfenced {}
