package serve

import (
	"fmt"
	"net"
)

// ListenURL is the base URL to give a client of a server listening on
// addr (http://HOST:PORT/v1), and whether addr reaches beyond loopback. A
// wildcard address (0.0.0.0, [::]) is written as 127.0.0.1, the URL that
// works on this machine; it listens on every interface, so beyond is true
// and the caller must say so (-listen 0.0.0.0:0 once printed a
// loopback URL and nothing else, as if nothing were exposed).
func ListenURL(addr net.Addr) (baseURL string, beyondLoopback bool) {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String() + "/v1", true
	}
	ip := tcp.IP.String()
	if tcp.IP.IsUnspecified() {
		ip = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(ip, fmt.Sprint(tcp.Port)) + "/v1", !tcp.IP.IsLoopback()
}

// Exposure is the line a command prints on stderr when it listens beyond
// loopback: what is exposed and to whom; "" on loopback.
func Exposure(command string, addr net.Addr) string {
	if _, beyond := ListenURL(addr); !beyond {
		return ""
	}
	tcp, _ := addr.(*net.TCPAddr)
	if tcp != nil && tcp.IP.IsUnspecified() {
		return fmt.Sprintf("agentvcr %s: listening on %s, beyond loopback: every host that can reach this machine on port %d can use this server; from another host, use this machine's address in place of 127.0.0.1",
			command, addr, tcp.Port)
	}
	return fmt.Sprintf("agentvcr %s: listening on %s, beyond loopback: every host that can reach that address can use this server", command, addr)
}
