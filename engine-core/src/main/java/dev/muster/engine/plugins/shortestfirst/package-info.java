/** Job order that shortens completion time: least expected remaining work first, with aging against starvation. */
package dev.muster.engine.plugins.shortestfirst;
