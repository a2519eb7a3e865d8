# Blocks whose only instruction is s_barrier (an s_branch may follow): the
# halves of a wave skew (the plugin's or an author's).
function flush() { if (n == 1 && bar) c++; n = 0; bar = 0 }
/^\.LBB|^; %bb\.|^[_a-zA-Z][_a-zA-Z0-9]*:/ { flush(); next }
/^[ \t]*(;|\.|$)/ { next }
/^[ \t]*s_branch/ { next }
/^[ \t]*s_barrier/ { n++; bar = 1; next }
/^[ \t]*s_(cbranch|endpgm|setpc)/ { n += 2; flush(); next }
{ n += 2 }
END { flush(); print c + 0 }
