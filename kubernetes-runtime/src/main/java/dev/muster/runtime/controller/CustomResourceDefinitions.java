package dev.muster.runtime.controller;

import static com.google.common.base.Preconditions.checkArgument;
import static java.util.Objects.requireNonNull;

import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * CustomResourceDefinition manifests (YAML, one or more documents) that a module's controllers need
 * the API server to serve, as a class-path resource of the module's jar. {@code muster up} creates
 * them in the embedded API server before the runtime starts; in a real cluster they are installed
 * with the rest of {@code deploy/}, since a scheduler has no business creating CRDs.
 *
 * @param owner a class of the module whose class loader holds the resource
 * @param resource the resource's absolute name, e.g. {@code /example/crds.yaml}
 */
public record CustomResourceDefinitions(Class<?> owner, String resource) {
    public CustomResourceDefinitions {
        requireNonNull(owner, "owner is null");
        requireNonNull(resource, "resource is null");
        checkArgument(resource.startsWith("/"), "resource must be an absolute class-path name: %s", resource);
    }

    /** Opens the manifests; the caller closes the stream. */
    public InputStream open() {
        InputStream in = owner.getResourceAsStream(resource);
        if (in == null) {
            throw new UncheckedIOException(new java.io.FileNotFoundException(
                    "CRD manifests " + resource + " of " + owner.getName() + " are not on the class path"));
        }
        return in;
    }
}
