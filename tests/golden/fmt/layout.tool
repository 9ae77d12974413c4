package layout.demo;import "a.tool";import "b.tool";

import "c.tool";
/// Items get one blank line between them.
enum E{a,b,c,}
record Empty{}
record R{x:map<string,list<u8>?>,
y:set<string>=[],@json_name("zed")z:string?=null,


w:f64=-1.5e3,}
service Empty2 {   }
service S{tool a();tool b(x:u8)->u8;

tool c();
@name("d.tool") tool d();
resource r(@length(max:3)id:string)->string;prompt p(a:string,)->string;}
