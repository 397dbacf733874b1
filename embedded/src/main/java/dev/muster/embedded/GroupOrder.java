package dev.muster.embedded;

import com.google.common.collect.ImmutableMap;
import java.math.BigInteger;
import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The order in which kube-apiserver v1.34.4 lists API groups and their versions in {@code /apis}: its
 * aggregator sorts the APIServices by group priority, highest first, then by name ({@code
 * VERSION.GROUP}), and lists each group where its first APIService falls; a group's versions go by
 * version priority. The built-in groups' priorities are kube-apiserver's ({@code
 * cmd/kube-apiserver/app/aggregator.go}, {@code pkg/controlplane/apiserver/aggregator.go}); a CRD's
 * group has 1000, and its versions go in Kubernetes' version order. kubectl resolves a resource name
 * that two groups serve to the first: {@code jobs} is batch/v1's, not Volcano's.
 */
final class GroupOrder {
    /** The priority kube-apiserver gives a CRD's APIService ({@code crdregistration} controller). */
    static final int CUSTOM = 1000;
    private static final ImmutableMap<String, Integer> PRIORITIES = ImmutableMap.<String, Integer>builder()
            .put("", 18000)
            .put("apps", 17800)
            .put("events.k8s.io", 17750)
            .put("authentication.k8s.io", 17700)
            .put("authorization.k8s.io", 17600)
            .put("autoscaling", 17500)
            .put("batch", 17400)
            .put("certificates.k8s.io", 17300)
            .put("networking.k8s.io", 17200)
            .put("policy", 17100)
            .put("rbac.authorization.k8s.io", 17000)
            .put("storage.k8s.io", 16800)
            .put("apiextensions.k8s.io", 16700)
            .put("admissionregistration.k8s.io", 16700)
            .put("scheduling.k8s.io", 16600)
            .put("coordination.k8s.io", 16500)
            .put("node.k8s.io", 16300)
            .put("resource.k8s.io", 16200)
            .put("discovery.k8s.io", 16200)
            .put("flowcontrol.apiserver.k8s.io", 16100)
            // below the CRDs' 1000: the server serves scheduler-plugins' PodGroup beside Volcano's (a cluster installs
            // one or the other), and `kubectl get podgroups`, which muster up's usage text gives, is Volcano's
            .put("scheduling.x-k8s.io", CUSTOM - 1)
            .buildOrThrow();
    /** A Kubernetes-like version: {@code v1}, {@code v2beta3}, {@code v1alpha1}. */
    private static final Pattern KUBE_VERSION = Pattern.compile("v(\\d+)(?:(alpha|beta)(\\d+))?");

    /** Group versions ({@code GROUP/VERSION}, the core group's {@code v1}) in the order of their APIServices. */
    static final Comparator<String> API_SERVICES = Comparator.comparingInt((String groupVersion) -> -priority(group(groupVersion)))
            .thenComparing(groupVersion -> version(groupVersion) + "." + group(groupVersion));

    /** Versions of one group, the preferred first, as apimachinery's {@code CompareKubeAwareVersionStrings} orders them. */
    static final Comparator<String> VERSIONS = GroupOrder::compareVersions;

    private GroupOrder() {}

    static int priority(String group) {
        return PRIORITIES.getOrDefault(group, CUSTOM);
    }

    private static String group(String groupVersion) {
        int slash = groupVersion.indexOf('/');
        return slash < 0 ? "" : groupVersion.substring(0, slash);
    }

    private static String version(String groupVersion) {
        return groupVersion.substring(groupVersion.indexOf('/') + 1);
    }

    /** GA before beta before alpha, a higher major first, then a higher minor; versions of no such form after, by name. */
    private static int compareVersions(String left, String right) {
        Matcher one = KUBE_VERSION.matcher(left);
        Matcher other = KUBE_VERSION.matcher(right);
        boolean oneKube = one.matches();
        boolean otherKube = other.matches();
        if (!oneKube || !otherKube) {
            return oneKube == otherKube ? left.compareTo(right) : oneKube ? -1 : 1;
        }
        int stability = Integer.compare(stability(other.group(2)), stability(one.group(2)));
        if (stability != 0) {
            return stability;
        }
        int major = new BigInteger(other.group(1)).compareTo(new BigInteger(one.group(1)));
        if (major != 0 || one.group(3) == null) {
            return major;
        }
        return new BigInteger(other.group(3)).compareTo(new BigInteger(one.group(3)));
    }

    private static int stability(String level) {
        return level == null ? 2 : level.equals("beta") ? 1 : 0;
    }
}
