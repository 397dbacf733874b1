package dev.muster.peers;

import static java.lang.String.format;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The extension behind {@link WithRealControlPlane}: one {@link RealControlPlane} per test class
 * (shared with its {@code @Nested} classes), started before all its tests and closed after them.
 * An installer or start-up failure is thrown from {@code beforeAll}, so the class fails; it is never
 * an assumption, so nothing skips.
 */
public final class RealControlPlaneExtension implements BeforeAllCallback, AfterAllCallback, AfterEachCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RealControlPlaneExtension.class);
    private static final String CONTROL_PLANE = "controlPlane";
    private static final String OWNER = "owner";

    @Override
    public void beforeAll(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        if (store.get(CONTROL_PLANE, RealControlPlane.class) != null) {
            // an enclosing class started it
            return;
        }
        WithRealControlPlane annotation = AnnotationSupport.findAnnotation(context.getRequiredTestClass(), WithRealControlPlane.class)
                .orElseThrow(() -> new PeerException(format(
                        "%s is extended with %s but not annotated @%s, which says what to start",
                        context.getRequiredTestClass().getName(), RealControlPlaneExtension.class.getSimpleName(),
                        WithRealControlPlane.class.getSimpleName())));
        RealControlPlane controlPlane = RealControlPlane.start(ControlPlaneSpec.of(annotation));
        store.put(CONTROL_PLANE, controlPlane);
        store.put(OWNER, context.getUniqueId());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        controlPlane(context).ifPresent(controlPlane -> {
            List<String> dead = controlPlane.deadPeerReports();
            if (!dead.isEmpty()) {
                // thrown after a failed test, JUnit attaches this to the test's own failure
                throw new AssertionError(format("a peer of the real control plane died during %s:%n%s",
                        context.getDisplayName(), String.join(format("%n"), dead)));
            }
        });
    }

    @Override
    public void afterAll(ExtensionContext context) {
        ExtensionContext.Store store = context.getStore(NAMESPACE);
        if (!context.getUniqueId().equals(store.get(OWNER, String.class))) {
            return;
        }
        RealControlPlane controlPlane = store.remove(CONTROL_PLANE, RealControlPlane.class);
        store.remove(OWNER);
        if (controlPlane != null) {
            controlPlane.close();
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        Class<?> type = parameterContext.getParameter().getType();
        return type == RealControlPlane.class || type == KubernetesClient.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        RealControlPlane controlPlane = controlPlane(extensionContext).orElseThrow(() -> new ParameterResolutionException(
                "no real control plane has started yet for " + parameterContext.getDeclaringExecutable()
                        + "; with @TestInstance(PER_CLASS), take it in a @BeforeAll or test method, not the constructor"));
        return parameterContext.getParameter().getType() == RealControlPlane.class ? controlPlane : controlPlane.client();
    }

    private static Optional<RealControlPlane> controlPlane(ExtensionContext context) {
        return Optional.ofNullable(context.getStore(NAMESPACE).get(CONTROL_PLANE, RealControlPlane.class));
    }
}
