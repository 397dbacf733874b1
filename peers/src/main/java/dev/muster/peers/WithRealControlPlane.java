package dev.muster.peers;

import static java.lang.annotation.ElementType.TYPE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import java.lang.annotation.Documented;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a real etcd and kube-apiserver, started once for the class
 * (see {@link RealControlPlane}). Test methods, constructors and lifecycle methods may declare a
 * {@link io.fabric8.kubernetes.client.KubernetesClient} (the admin user, group {@code system:masters})
 * or the {@link RealControlPlane} itself (kubeconfig path, the unprivileged user, the peers' logs).
 *
 * <p>The class fails, and never skips, when {@code peers/install} cannot install a peer; a test fails
 * when a peer died during it, with the peer's last log lines.
 */
@Target(TYPE)
@Retention(RUNTIME)
@Documented
@Inherited
@ExtendWith(RealControlPlaneExtension.class)
public @interface WithRealControlPlane {
    /** How many nodes to register, named {@code node-0}, {@code node-1}, ... */
    int nodes() default 3;

    /** Each node's cpu capacity and allocatable. */
    String nodeCpu() default "8";

    /** Each node's memory capacity and allocatable. */
    String nodeMemory() default "32Gi";

    /** Each node's pod capacity and allocatable. */
    int nodePods() default 110;
}
